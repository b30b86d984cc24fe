import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { LandingPage } from './LandingPage';

const getStarted = '/register?source=main-landing&user_type=mixed';

describe('LandingPage', () => {
  it('has a navbar with Sign In and an anchor to how it works', () => {
    renderWithConfab(<LandingPage />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    expect(within(nav).getByRole('link', { name: 'How it works' })).toHaveAttribute('href', '#how-it-works');
  });

  it('points every Get Started call to action at the landing registration', () => {
    renderWithConfab(<LandingPage />);
    const ctas = screen.getAllByRole('link', { name: 'Get Started' });
    expect(ctas).toHaveLength(2);
    for (const cta of ctas) expect(cta).toHaveAttribute('href', getStarted);
  });

  it('routes a plain click through navigate, leaving modified clicks to the browser', async () => {
    // The outer handler stops jsdom from attempting the real navigation a Ctrl-click would do.
    const { user, navigate } = renderWithConfab(
      <div onClick={(event) => event.preventDefault()}>
        <LandingPage />
      </div>,
    );
    const [heroCta] = screen.getAllByRole('link', { name: 'Get Started' });
    await user.click(heroCta!);
    expect(navigate).toHaveBeenCalledWith(getStarted);
    navigate.mockClear();
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Sign In' }));
    await user.keyboard('{/Control}');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('follows links from the keyboard', async () => {
    const { user, navigate } = renderWithConfab(<LandingPage />);
    screen.getByRole('link', { name: 'Sign In' }).focus();
    await user.keyboard('{Enter}');
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('pitches the product in a how-it-works section', () => {
    const { container } = renderWithConfab(<LandingPage />);
    const section = container.querySelector('section#how-it-works');
    expect(section).not.toBeNull();
    const features = within(section as HTMLElement);
    for (const title of ['Agents built in minutes', 'Your code stays local', 'Share by link', 'Free to start']) {
      expect(features.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
  });
});
