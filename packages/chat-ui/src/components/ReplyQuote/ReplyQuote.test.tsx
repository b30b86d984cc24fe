import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { clientMessage } from '../../testing/builders';
import { Message } from '../Message/Message';
import { ReplyQuote } from './ReplyQuote';

const now = Date.parse('2026-01-05T12:30:00Z');

describe('ReplyQuote', () => {
  it("shows the original's author and first line, and leads to the original when pressed", async () => {
    const onJump = vi.fn();
    render(<ReplyQuote preview={{ message_id: 'msg1', author_name: 'Ann', excerpt: 'Lunch at 12?' }} onJump={onJump} />);
    const quote = screen.getByRole('button', { name: 'Replying to Ann: Lunch at 12?. Show the original' });
    expect(quote).toHaveTextContent('Ann Lunch at 12?');
    await userEvent.click(quote);
    expect(onJump).toHaveBeenCalledWith('msg1');
  });

  it('says "original deleted" once the original is gone, and leads nowhere', () => {
    render(<ReplyQuote preview={{ message_id: 'msg1', author_name: 'Ann', excerpt: '', deleted: true }} onJump={vi.fn()} />);
    expect(screen.getByRole('button', { name: /original deleted/ })).toBeDisabled();
  });
});

describe('Message with replies', () => {
  it('shows the quote in a reply, "N replies" on an original, and offers Reply from the keyboard', async () => {
    const onReply = vi.fn();
    const onOpenThread = vi.fn();
    const original = clientMessage({ content: 'Lunch at 12?', author_name: 'Ann', reply_count: 2 }, { now });
    const { rerender } = render(<Message message={original} now={now} onReply={onReply} onOpenThread={onOpenThread} />);
    await userEvent.click(screen.getByRole('button', { name: '2 replies' }));
    expect(onOpenThread).toHaveBeenCalledWith(original.message_id);
    // The next stop after "2 replies" is the actions bar, Reply in it.
    await userEvent.tab();
    expect(within(screen.getByRole('group', { name: 'Message actions' })).getByRole('button', { name: 'Reply' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onReply).toHaveBeenCalledWith(original);

    const single = { ...original, reply_count: 1 };
    rerender(<Message message={single} now={now} onOpenThread={onOpenThread} />);
    expect(screen.getByRole('button', { name: '1 reply' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reply' })).toBeNull();

    const reply = clientMessage({ content: 'Yes', reply_to: original.message_id, reply_to_preview: { message_id: original.message_id, author_name: 'Ann', excerpt: 'Lunch at 12?' } }, { now });
    rerender(<Message message={reply} now={now} />);
    expect(screen.getByRole('button', { name: /^Replying to Ann: Lunch at 12\?/ })).toBeInTheDocument();
  });

  it('offers no Reply on a message still being sent', () => {
    const pending = clientMessage({ content: 'On its way', status: 'pending', seq: null }, { now });
    render(<Message message={pending} now={now} onReply={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Reply' })).toBeNull();
  });
});
