import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { AuthLayout } from './AuthLayout';

describe('AuthLayout', () => {
  it('renders the heading, body, footer and a home link', async () => {
    const { user, navigate } = renderWithConfab(
      <AuthLayout title="Sign In" description="Welcome back." footer={<span>footer</span>}>
        <p>body</p>
      </AuthLayout>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back.')).toBeInTheDocument();
    expect(screen.getByText('body')).toBeInTheDocument();
    expect(screen.getByText('footer')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Confab home' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });
});
