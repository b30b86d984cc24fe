import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from './Spinner';

describe('Spinner', () => {
  it('is decorative and sized', () => {
    const { container } = render(<Spinner size={20} />);
    const spinner = container.firstElementChild as HTMLElement;
    expect(spinner).toHaveAttribute('aria-hidden', 'true');
    expect(spinner.style.width).toBe('20px');
  });
});
