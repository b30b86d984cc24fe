import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { stubMessageListLayout } from '../../../test/layout';
import { clientMessage, messageHistory, userRecordOf } from '../../testing/builders';
import { MessageList } from './MessageList';

const now = Date.parse('2026-01-05T12:30:00Z');
/** The stubbed view is 600 px; unmeasured rows keep the list's 76 px estimate. */
const rowPx = 76;

beforeEach(() => stubMessageListLayout(600));

const dividerRow = () => screen.getByRole('separator', { name: 'New messages' }).closest('.cf-message-list__row');

describe('MessageList unread', () => {
  it("puts the 'New messages' divider above the first later message; none when all was read", () => {
    const history = messageHistory(8, 'c1', now);
    const { rerender } = renderWithConfab(<MessageList messages={history} lastReadSeq={5} now={now} />);
    expect(within(dividerRow() as HTMLElement).getByRole('article')).toHaveTextContent('Message 6');
    rerender(<MessageList messages={history} lastReadSeq={8} now={now} />);
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
  });

  it("skips the person's own messages", () => {
    const history = messageHistory(8, 'c1', now);
    const { client } = renderWithConfab(<MessageList messages={history} lastReadSeq={6} now={now} />);
    expect(dividerRow()).toHaveTextContent('Message 7');
    // Message 7 is Bob's (user00000000002): signed in as Bob, the first new one is message 8.
    act(() => client.store.setState({ user: userRecordOf('user00000000002', 'bob', 'Bob Builder') }));
    expect(dividerRow()).toHaveTextContent('Message 8');
  });

  it('shows no divider while searching, or before the first unread one is loaded', () => {
    const history = messageHistory(40, 'c1', now);
    const { rerender } = renderWithConfab(<MessageList messages={history} lastReadSeq={30} filter="Message" now={now} />);
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
    // All 20 loaded messages are unread and older ones exist: where they start is not known yet.
    rerender(<MessageList messages={history.slice(20)} lastReadSeq={10} hasOlder now={now} />);
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
  });

  it('opens at the top when the unread messages start in older history, so older pages load', () => {
    const onLoadOlder = vi.fn();
    renderWithConfab(<MessageList messages={messageHistory(40, 'c1', now).slice(20)} lastReadSeq={10} hasOlder onLoadOlder={onLoadOlder} now={now} />);
    expect(screen.getByRole('log', { name: 'Messages' }).scrollTop).toBe(0);
    expect(screen.getByText('Message 21')).toBeInTheDocument();
    expect(onLoadOlder).toHaveBeenCalledOnce();
  });

  it('tells what is on screen: the highest seq wholly in view, again after each scroll', () => {
    const onMessagesSeen = vi.fn();
    renderWithConfab(<MessageList messages={messageHistory(40, 'c1', now)} lastReadSeq={10} onMessagesSeen={onMessagesSeen} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    // Opened at the divider (row 10, 16 px of room above it): rows 11 to 17 are wholly in view.
    expect(log.scrollTop).toBe(10 * rowPx - 16);
    expect(onMessagesSeen).toHaveBeenLastCalledWith(17);
    act(() => {
      log.scrollTop = 40 * rowPx - 600;
    });
    expect(onMessagesSeen).toHaveBeenLastCalledWith(40);
    expect(onMessagesSeen).toHaveBeenCalledTimes(2);
  });

  it('says nothing is seen while searching', () => {
    const onMessagesSeen = vi.fn();
    renderWithConfab(<MessageList messages={messageHistory(40, 'c1', now)} filter="Message" onMessagesSeen={onMessagesSeen} now={now} />);
    expect(onMessagesSeen).not.toHaveBeenCalled();
  });

  it('still follows new messages at the bottom with a divider shown', () => {
    const history = messageHistory(40, 'c1', now);
    const { rerender } = renderWithConfab(<MessageList messages={history} lastReadSeq={38} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    const extra = clientMessage({ content: 'Brand new', chat_id: 'c1', seq: 41 }, { now });
    rerender(<MessageList messages={[...history, extra]} lastReadSeq={38} now={now} />);
    expect(log.scrollTop).toBe(41 * rowPx - 600);
    expect(dividerRow()).toHaveTextContent('Message 39');
    expect(screen.queryByRole('button', { name: /^Jump to/ })).not.toBeInTheDocument();
  });
});
