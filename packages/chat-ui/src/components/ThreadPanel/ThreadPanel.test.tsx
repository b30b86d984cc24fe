import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { clientMessage } from '../../testing/builders';
import { ReplyBanner } from '../ReplyBanner/ReplyBanner';
import { ThreadPanel } from './ThreadPanel';

const now = Date.parse('2026-01-05T12:30:00Z');
const original = clientMessage({ content: 'Lunch at 12?', author_name: 'Ann', reply_count: 1 }, { now });
const reply = clientMessage({ content: 'Yes please', author_name: 'Bob', reply_to: original.message_id }, { now });

describe('ThreadPanel', () => {
  it('shows the original and its replies, takes the focus, and answers the original from its own input', async () => {
    const onSend = vi.fn();
    render(<ThreadPanel original={original} replies={[reply]} onSend={onSend} onClose={vi.fn()} now={now} />);
    const panel = screen.getByRole('complementary', { name: 'Thread' });
    expect(within(panel).getByRole('heading', { name: 'Thread' })).toHaveFocus();
    expect(within(panel).getByText('Lunch at 12?')).toBeInTheDocument();
    expect(within(within(panel).getByRole('list', { name: 'Replies' })).getByText('Yes please')).toBeInTheDocument();
    expect(within(panel).getByText('1 reply')).toBeInTheDocument();
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Reply in thread' }), 'See you there{Enter}');
    expect(onSend).toHaveBeenCalledWith('See you there');
    expect(within(panel).getByRole('textbox', { name: 'Reply in thread' })).toHaveValue('');
  });

  it('closes with Escape and with Close', async () => {
    const onClose = vi.fn();
    render(<ThreadPanel original={original} replies={[]} onSend={vi.fn()} onClose={onClose} now={now} />);
    expect(screen.getByText('No replies yet')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Close thread' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('gives the focus back to what opened it when it closes', async () => {
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            1 reply
          </button>
          {open ? <ThreadPanel original={original} replies={[reply]} onSend={vi.fn()} onClose={() => setOpen(false)} now={now} /> : null}
        </>
      );
    }
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: '1 reply' }));
    expect(screen.getByRole('heading', { name: 'Thread' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Thread' })).toBeNull();
    expect(screen.getByRole('button', { name: '1 reply' })).toHaveFocus();
  });

  it('says so while loading, and announces a failure', () => {
    const { rerender } = render(<ThreadPanel original={null} replies={[]} loading onSend={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading replies...');
    expect(screen.getByRole('button', { name: 'Send reply' })).toBeDisabled();
    rerender(<ThreadPanel original={null} replies={[]} error="Failed to load the replies." onSend={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load the replies.');
  });
});

describe('ReplyBanner', () => {
  it('says who is answered and cancels', async () => {
    const onCancel = vi.fn();
    render(<ReplyBanner authorName="ann" onCancel={onCancel} />);
    expect(screen.getByRole('status')).toHaveTextContent('Replying to ann');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel reply to ann' }));
    expect(onCancel).toHaveBeenCalled();
  });
});
