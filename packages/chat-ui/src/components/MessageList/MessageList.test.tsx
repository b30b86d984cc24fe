import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { stubMessageListLayout } from '../../../test/layout';
import { clientMessage, messageHistory } from '../../testing/builders';
import { MessageList } from './MessageList';

const now = Date.parse('2026-01-05T12:30:00Z');

beforeEach(() => stubMessageListLayout(600));

function rows(): HTMLElement[] {
  return within(screen.getByRole('log', { name: 'Messages' })).getAllByRole('article');
}

describe('MessageList', () => {
  it('welcomes the user and suggests @email, @deep, @browse and @data when empty', () => {
    renderWithConfab(<MessageList messages={[]} userName="Alice" now={now} />);
    expect(screen.getByRole('heading', { name: 'Welcome, Alice!' })).toBeInTheDocument();
    const suggestions = screen.getByRole('list', { name: 'Agent suggestions' });
    for (const mention of ['@email', '@deep', '@browse', '@data']) expect(within(suggestions).getByText(mention)).toBeInTheDocument();
  });

  it('shows a loading state before the first page', () => {
    renderWithConfab(<MessageList messages={[]} loading now={now} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading messages...');
  });

  it('renders only a window of 10,000 messages, starting at the bottom', () => {
    renderWithConfab(<MessageList messages={messageHistory(10_000, 'c1', now)} now={now} />);
    const rendered = rows();
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(60);
    expect(screen.getByText('Message 10000')).toBeInTheDocument();
    expect(screen.queryByText('Message 1')).not.toBeInTheDocument();
  });

  it('loads older messages near the top and keeps the view where it was', async () => {
    const history = messageHistory(200, 'c1', now);
    const onLoadOlder = vi.fn();
    const { rerender } = renderWithConfab(<MessageList messages={history.slice(100)} hasOlder onLoadOlder={onLoadOlder} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    log.scrollTop = 150;
    fireEvent.scroll(log);
    expect(onLoadOlder).toHaveBeenCalledOnce();
    await act(async () => {});
    rerender(<MessageList messages={history} hasOlder={false} onLoadOlder={onLoadOlder} now={now} />);
    // 100 rows of the estimated height were added above: the same rows stay in view.
    expect(log.scrollTop).toBe(150 + 100 * 76);
  });

  it('does not ask for older history while one load runs or when there is none', () => {
    const onLoadOlder = vi.fn(() => new Promise(() => {}));
    renderWithConfab(<MessageList messages={messageHistory(100, 'c1', now)} hasOlder onLoadOlder={onLoadOlder} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    log.scrollTop = 10;
    fireEvent.scroll(log);
    fireEvent.scroll(log);
    expect(onLoadOlder).toHaveBeenCalledOnce();
  });

  it('follows new messages at the bottom, but not after the user scrolled up', () => {
    const history = messageHistory(100, 'c1', now);
    const { rerender } = renderWithConfab(<MessageList messages={history} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    const extra = clientMessage({ content: 'Brand new', chat_id: 'c1' }, { now });
    rerender(<MessageList messages={[...history, extra]} now={now} />);
    expect(log.scrollTop).toBe(101 * 76 - 600);
    expect(screen.getByText('Brand new')).toBeInTheDocument();

    log.scrollTop = 1000;
    fireEvent.scroll(log);
    rerender(<MessageList messages={[...history, extra, clientMessage({ content: 'Another', chat_id: 'c1' }, { now })]} now={now} />);
    expect(log.scrollTop).toBe(1000);
  });

  it('filters by the search text and marks it', () => {
    renderWithConfab(<MessageList messages={messageHistory(30, 'c1', now)} filter="message 2" now={now} />);
    const shown = rows().map((row) => row.querySelector('.cf-message__body')?.textContent);
    expect(shown.map((text) => text?.match(/^Message \d+/)?.[0])).toEqual(['Message 2', ...Array.from({ length: 10 }, (_, index) => `Message ${20 + index}`)]);
    expect(screen.getAllByText('Message 2', { selector: 'mark' }).length).toBeGreaterThan(0);
  });

  it('says when nothing matches', () => {
    renderWithConfab(<MessageList messages={messageHistory(5, 'c1', now)} filter="zebra" now={now} />);
    expect(screen.getByRole('status')).toHaveTextContent('No messages match “zebra”');
  });

  it('passes Retry through for failed messages', () => {
    const onRetry = vi.fn();
    renderWithConfab(
      <MessageList messages={[clientMessage({ content: 'x', status: 'failed', client_id: 'local-9' }, { now })]} onRetry={onRetry} now={now} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('local-9');
  });
});
