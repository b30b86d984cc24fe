import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Message } from '../components/Message/Message';
import { MessageList } from '../components/MessageList/MessageList';
import { stubMessageListLayout } from '../../test/layout';
import { renderWithConfab } from '../../test/renderWithConfab';
import { clientMessage, searchResultsData } from '../testing/builders';
import { LazySearchResultsCard } from './lazyParts';
import { clockStats, clockTickMs, useNow } from './useNow';

// 10 s past a 30-second boundary of the wall clock.
const start = Date.parse('2026-05-20T12:00:10Z');

function Clock() {
  return <output>{useNow()}</output>;
}

describe('the shared clock of relative times', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(start);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("turns '0m ago' into '2m ago' on an open page, all messages with one timer", () => {
    const messages = [clientMessage({ content: 'first', author_name: 'Ann' }, { minutesAgo: 0 }), clientMessage({ content: 'second', author_name: 'Bob' }, { minutesAgo: 0 })];
    const { unmount } = render(
      <>
        {messages.map((message) => (
          <Message key={message.message_id} message={message} />
        ))}
      </>,
    );
    expect(screen.getAllByText('0m ago')).toHaveLength(2);
    expect(clockStats()).toEqual({ timers: 1, listeners: 2 });

    // Ticks at :30 and :00, so a label is at most 30 s behind: 1m ago from the tick after 60 s.
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getAllByText('0m ago')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(20_000));
    expect(screen.getAllByText('1m ago')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getAllByText('2m ago')).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(1);

    unmount();
    expect(clockStats()).toEqual({ timers: 0, listeners: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ticks on the 30-second boundaries of the wall clock', () => {
    render(<Clock />);
    const shown = () => Number(screen.getByRole('status').textContent);
    expect(shown()).toBe(start);
    act(() => vi.advanceTimersByTime(19_999));
    expect(shown()).toBe(start);
    act(() => vi.advanceTimersByTime(1));
    expect(shown()).toBe(start + 20_000);
    expect(shown() % clockTickMs).toBe(0);
    act(() => vi.advanceTimersByTime(clockTickMs));
    expect(shown()).toBe(start + 20_000 + clockTickMs);
  });

  it('updates the labels of a message list, and a fixed now stays fixed', () => {
    stubMessageListLayout(600);
    const fixed = clientMessage({ content: 'pinned' }, { minutesAgo: 5 });
    renderWithConfab(
      <>
        <MessageList messages={[clientMessage({ content: 'live' }, { minutesAgo: 58 })]} />
        <Message message={fixed} now={start} />
      </>,
    );
    expect(screen.getByText('58m ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2 * 60_000 + 20_000));
    expect(screen.getByText('1h ago')).toBeInTheDocument();
    expect(screen.getByText('5m ago')).toBeInTheDocument();
  });

  it("keeps a search-results card's time current too", async () => {
    const data = searchResultsData(1, { created_at: new Date(start).toISOString() });
    // The card's code loads on demand (Message shows a placeholder until it is here): load it first.
    await LazySearchResultsCard.preload();
    render(<Message message={clientMessage({ content: JSON.stringify(data) })} />);
    const card = screen.getByRole('region', { name: 'open-source vector databases' });
    expect(within(card).getByText('0m ago')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(2 * 60_000 + 20_000));
    expect(within(card).getByText('2m ago')).toBeInTheDocument();
  });
});
