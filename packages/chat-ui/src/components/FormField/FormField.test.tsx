import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FormField } from './FormField';

describe('FormField', () => {
  it('ties a visible label to the input', () => {
    render(<FormField label="Email" type="email" />);
    const input = screen.getByLabelText('Email');
    expect(input).toHaveAttribute('type', 'email');
    expect(screen.getByText('Email').tagName).toBe('LABEL');
  });

  it('describes the input with its hint', () => {
    render(<FormField label="Password" hint="At least 8 characters." />);
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters.');
  });

  it('forwards input props and events', async () => {
    const onChange = vi.fn();
    render(<FormField label="Username" id="username" value="" onChange={onChange} disabled={false} />);
    await userEvent.type(screen.getByLabelText('Username'), 'a');
    expect(onChange).toHaveBeenCalled();
    expect(screen.getByLabelText('Username')).toHaveAttribute('id', 'username');
  });
});
