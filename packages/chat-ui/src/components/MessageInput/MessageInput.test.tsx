import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { mentionQueryAt, MessageInput } from './MessageInput';

function setup(props: { disabled?: boolean } = {}) {
  const onSend = vi.fn();
  const { user } = renderWithConfab(<MessageInput chatId="chat_design_001" onSend={onSend} {...props} />);
  return { onSend, user, field: screen.getByRole('textbox', { name: 'Message' }) };
}

describe('MessageInput', () => {
  it('sends the trimmed text on Enter and clears the field', async () => {
    const { onSend, user, field } = setup();
    await user.type(field, '  hello there  {Enter}');
    expect(onSend).toHaveBeenCalledWith('hello there');
    expect(field).toHaveValue('');
  });

  it('inserts a newline on Shift+Enter instead of sending', async () => {
    const { onSend, user, field } = setup();
    await user.type(field, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(field).toHaveValue('line one\nline two');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('line one\nline two');
  });

  it('never sends blank text', async () => {
    const { onSend, user, field } = setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(field, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('is disabled when told so', () => {
    const { field } = setup({ disabled: true });
    expect(field).toBeDisabled();
  });

  it('toggles the upload zone with its Choose Files control', async () => {
    const { user } = setup();
    const upload = screen.getByRole('button', { name: 'Upload files' });
    expect(upload).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Upload zone' })).not.toBeInTheDocument();
    await user.click(upload);
    expect(upload).toHaveAttribute('aria-expanded', 'true');
    const zone = screen.getByRole('region', { name: 'Upload zone' });
    expect(upload).toHaveAttribute('aria-controls', zone.id);
    expect(screen.getByRole('button', { name: 'Choose Files' })).toBeEnabled();
    await user.click(upload);
    // Hidden, not gone: uploads in progress keep going and show again when reopened.
    expect(screen.queryByRole('region', { name: 'Upload zone' })).not.toBeInTheDocument();
    expect(zone).not.toBeVisible();
  });

  it('opens the agent dropdown on @ plus word characters before the cursor', async () => {
    const { user, field } = setup();
    await user.type(field, 'ask @de');
    expect(screen.getByRole('region', { name: 'Agent suggestions' })).toHaveTextContent('No agents found for "de"');
    await user.type(field, ' now');
    expect(screen.queryByRole('region', { name: 'Agent suggestions' })).not.toBeInTheDocument();
    await user.type(field, ' @x{Escape}');
    expect(screen.queryByRole('region', { name: 'Agent suggestions' })).not.toBeInTheDocument();
  });

  it('detects the mention query', () => {
    expect(mentionQueryAt('@deep', 5)).toBe('deep');
    expect(mentionQueryAt('hi @', 4)).toBe('');
    expect(mentionQueryAt('mail me@example', 15)).toBeNull();
    expect(mentionQueryAt('@deep now', 9)).toBeNull();
    expect(mentionQueryAt('@deep now', 5)).toBe('deep');
  });
});
