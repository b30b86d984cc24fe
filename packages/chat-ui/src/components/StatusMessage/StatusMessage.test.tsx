import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusMessage } from './StatusMessage';

describe('StatusMessage', () => {
  it('is a polite status region', () => {
    render(<StatusMessage variant="info">Saving...</StatusMessage>);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Saving...');
    expect(status).toHaveClass('cf-status--info');
  });
});
