import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Logo } from './Logo';

describe('Logo', () => {
  it('shows the word mark', () => {
    render(<Logo />);
    expect(screen.getByText('Confab')).toBeVisible();
  });

  it('keeps the name for screen readers when compact', () => {
    render(<Logo compact />);
    expect(screen.getByText('Confab')).toHaveClass('cf-visually-hidden');
  });
});
