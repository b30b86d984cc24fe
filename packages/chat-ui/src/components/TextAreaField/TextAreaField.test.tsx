import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TextAreaField } from './TextAreaField';

describe('TextAreaField', () => {
  it('ties a visible label to a textarea of several rows', () => {
    render(<TextAreaField label="Description" />);
    const field = screen.getByLabelText('Description');
    expect(field.tagName).toBe('TEXTAREA');
    expect(field).toHaveAttribute('rows', '5');
    expect(screen.getByText('Description').tagName).toBe('LABEL');
  });

  it('describes the field with its hint, and keeps new lines', async () => {
    const onChange = vi.fn();
    render(<TextAreaField label="Prompt" hint="What the agent does." rows={8} defaultValue="" onChange={onChange} />);
    const field = screen.getByLabelText('Prompt');
    expect(field).toHaveAccessibleDescription('What the agent does.');
    expect(field).toHaveAttribute('rows', '8');
    await userEvent.type(field, 'one{Enter}two');
    expect(field).toHaveValue('one\ntwo');
    expect(onChange).toHaveBeenCalled();
  });
});
