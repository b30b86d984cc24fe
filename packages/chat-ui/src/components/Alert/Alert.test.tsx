import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Alert } from './Alert';

describe('Alert', () => {
  it('announces its message as an alert', () => {
    render(<Alert id="login-error">Please enter both username and password</Alert>);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Please enter both username and password');
    expect(alert).toHaveAttribute('id', 'login-error');
  });
});
