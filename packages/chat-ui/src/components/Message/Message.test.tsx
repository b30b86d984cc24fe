import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { agentAvatarColor, avatarColor, type ChartMessage as ChartData } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { clientMessage, searchResultsData } from '../../testing/builders';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { exactDateTime } from './EditedMark';
import { Message } from './Message';

const now = Date.parse('2026-01-05T12:30:00Z');
const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

describe('Message', () => {
  it('shows author, time-ago, the body and the author colour', () => {
    const message = clientMessage({ content: 'Shall we ship?', author_id: 'user1', author_name: 'Bob' }, { minutesAgo: 5, now });
    const { container } = render(<Message message={message} now={now} />);
    const article = screen.getByRole('article', { name: 'Bob' });
    expect(within(article).getByText('5m ago')).toBeInTheDocument();
    expect(within(article).getByText('Shall we ship?')).toBeInTheDocument();
    expect(container.querySelector('.cf-avatar')).toHaveStyle({ backgroundColor: avatarColor('user1') });
  });

  it('renders markdown through the client renderer, sanitised', () => {
    const message = clientMessage({ content: '**bold** <img src=x onerror="alert(1)"> <script>alert(2)</script>' }, { now });
    const { container } = render(<Message message={message} now={now} />);
    expect(container.querySelector('strong')).toHaveTextContent('bold');
    expect(container.querySelector('img')).not.toHaveAttribute('onerror');
    expect(container.querySelector('script')).toBeNull();
  });

  it('loads remote images through the image proxy with the API origin and a file token', async () => {
    const message = clientMessage({ content: '![cat](https://cats.example/a.png) ![own](/api/files/files/f1/b.png)' }, { now });
    const backend = createFakeBackend({ users: [alice] });
    const { container, client } = renderWithConfab(<Message message={message} now={now} />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    const [remote, own] = [...container.querySelectorAll('img')];
    await waitFor(() => expect(remote?.getAttribute('src')).toMatch(/^http:\/\/confab\.test\/api\/image-proxy\?token=[^&]+&url=https%3A%2F%2Fcats\.example%2Fa\.png$/));
    expect(own).toHaveAttribute('src', '/api/files/files/f1/b.png');
  });

  it('marks agents and colours them green', () => {
    const message = clientMessage({ content: 'Hi', author_name: 'Deep', is_agent: true }, { now });
    const { container } = render(<Message message={message} now={now} />);
    const article = screen.getByRole('article', { name: 'Deep (Agent)' });
    expect(within(article).getByText('Agent')).toBeInTheDocument();
    expect(container.querySelector('.cf-avatar')).toHaveStyle({ backgroundColor: agentAvatarColor });
  });

  it('shows time-ago in Chinese', () => {
    render(<Message message={clientMessage({ content: 'x' }, { minutesAgo: 120, now })} now={now} locale="zh" />);
    expect(screen.getByText('2小时前')).toBeInTheDocument();
  });

  it('renders a search-results body as the card, loaded on demand behind a status', async () => {
    render(<Message message={clientMessage({ content: JSON.stringify(searchResultsData(3)) }, { now })} now={now} />);
    const card = await screen.findByRole('region', { name: 'open-source vector databases' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.queryByRole('status', { name: /Loading search results/ })).not.toBeInTheDocument();
  });

  it('renders a chart body after its code loads, in a box of about its height meanwhile', async () => {
    const chart: ChartData = {
      type: 'chart',
      kind: 'bar',
      title: 'Sales by region',
      x: { name: 'region', values: ['north', 'south'] },
      series: [{ name: 'sales', values: [7, 22.5] }],
    };
    const { container } = render(<Message message={clientMessage({ content: JSON.stringify(chart), is_agent: true, author_name: 'Data' }, { now })} now={now} />);
    // The first chart of this file: its code is not loaded yet.
    expect(screen.getByRole('status')).toHaveTextContent('Loading chart...');
    expect(container.querySelector('.cf-chart')).toHaveStyle({ minHeight: '240px' });
    expect(await screen.findByRole('img', { name: /Bar chart: Sales by region/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Sales by region' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('marks a reply that broke off before its end, under the text that arrived', () => {
    const base = { content: 'Roses are', is_agent: true, author_name: 'Poet' };
    const { rerender } = render(<Message message={clientMessage({ ...base, cut_off: true }, { now })} now={now} />);
    const article = screen.getByRole('article', { name: 'Poet (Agent)' });
    expect(within(article).getByText('Roses are')).toBeInTheDocument();
    expect(within(article).getByText('(reply cut off)')).toHaveClass('cf-message__status');
    rerender(<Message message={clientMessage(base, { now })} now={now} />);
    expect(screen.queryByText('(reply cut off)')).not.toBeInTheDocument();
  });

  it('shows pending and failed states; Retry sends the client id', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(<Message message={clientMessage({ content: 'x', status: 'pending', client_id: 'local-1' }, { now })} now={now} onRetry={onRetry} />);
    expect(screen.getByRole('status')).toHaveTextContent('Sending...');
    rerender(<Message message={clientMessage({ content: 'x', status: 'failed', client_id: 'local-1' }, { now })} now={now} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to send.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('local-1');
  });

  it("marks an edited message '(edited)', with the exact time of the edit on hover and for screen readers", () => {
    // 14:05 in the viewer's time zone, whatever it is.
    const editedAt = new Date(2026, 0, 5, 14, 5).toISOString();
    const message = clientMessage({ content: 'Shall we ship on Friday?', edited_at: editedAt }, { minutesAgo: 5, now });
    render(<Message message={message} now={now} />);
    const article = screen.getByRole('article', { name: 'Bob Builder' });
    const mark = within(article).getByTitle('Edited Monday, January 5, 2026 at 2:05 PM');
    expect(mark).toHaveTextContent('(edited)');
    expect(mark.tagName).toBe('TIME');
    expect(mark).toHaveAttribute('datetime', editedAt);
    // Read in place of the bare mark, after the time.
    expect(within(mark).getByText('(edited)')).toHaveAttribute('aria-hidden', 'true');
    expect(within(mark).getByText('Edited Monday, January 5, 2026 at 2:05 PM')).toHaveClass('cf-visually-hidden');
    expect(article.querySelector('.cf-message__meta')).toHaveTextContent(/5m ago.*\(edited\)/);
  });

  it('shows no edited mark on a message never edited', () => {
    render(<Message message={clientMessage({ content: 'First try' }, { now })} now={now} />);
    expect(screen.queryByText('(edited)')).not.toBeInTheDocument();
  });

  it('spells the exact date and time in full, in English and Chinese', () => {
    expect(exactDateTime(new Date(2026, 0, 5, 9, 7).toISOString())).toBe('Monday, January 5, 2026 at 9:07 AM');
    expect(exactDateTime(new Date(2025, 11, 31, 0, 30).toISOString())).toBe('Wednesday, December 31, 2025 at 12:30 AM');
    expect(exactDateTime(new Date(2026, 0, 5, 12, 0).toISOString())).toBe('Monday, January 5, 2026 at 12:00 PM');
    expect(exactDateTime(new Date(2026, 0, 5, 9, 7).toISOString(), 'zh')).toBe('2026年1月5日星期一 09:07');
    // The server's format (a space before the time) and nonsense.
    expect(exactDateTime('2026-01-05 12:00:00.000Z')).toMatch(/^Monday, January 5, 2026 at \d{1,2}:00 [AP]M$/);
    expect(exactDateTime('not a date')).toBe('');
  });

  it('gives its time label the exact date and time as title and for screen readers', () => {
    const message = clientMessage({ content: 'On time' }, { minutesAgo: 5, now });
    render(<Message message={message} now={now} />);
    const time = within(screen.getByRole('article', { name: 'Bob Builder' })).getByTitle(exactDateTime(message.created_at));
    expect(time).toHaveAttribute('datetime', message.created_at);
    expect(within(time).getByText('5m ago')).toHaveAttribute('aria-hidden', 'true');
    expect(within(time).getByText(exactDateTime(message.created_at))).toHaveClass('cf-visually-hidden');
  });

  it('grouped, shows neither avatar nor name, yet keeps the author for screen readers and the time of day', () => {
    const message = clientMessage({ content: 'And another thing', edited_at: new Date(2026, 0, 5, 14, 5).toISOString() }, { minutesAgo: 5, now });
    const { container } = render(<Message message={message} now={now} grouped />);
    const article = screen.getByRole('article', { name: 'Bob Builder' });
    expect(container.querySelector('.cf-avatar')).toBeNull();
    expect(container.querySelector('.cf-message__author')).toBeNull();
    expect(within(article).getByText('Bob Builder')).toHaveClass('cf-visually-hidden');
    // The time of day in the avatar's place, with the full date and time as its title.
    const time = within(article).getByTitle(exactDateTime(message.created_at));
    expect(time).toHaveClass('cf-message__time--gutter');
    expect(within(time).getByText(/^\d{1,2}:\d{2}\s[AP]M$/)).toHaveAttribute('aria-hidden', 'true');
    expect(within(article).getByTitle('Edited Monday, January 5, 2026 at 2:05 PM')).toHaveTextContent('(edited)');
  });

  it('offers no actions unless told to (the message list decides who may do what)', () => {
    render(<Message message={clientMessage({ content: 'Mine' }, { now })} now={now} />);
    expect(screen.queryByRole('group', { name: 'Message actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('offers Edit and Delete as told, in a group reached with Tab', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Message message={clientMessage({ content: 'Mine' }, { now })} now={now} canEdit canDelete />);
    const actions = screen.getByRole('group', { name: 'Message actions' });
    expect(within(actions).getAllByRole('button').map((button) => button.textContent)).toEqual(['Edit', 'Delete']);
    await user.tab();
    expect(within(actions).getByRole('button', { name: 'Edit' })).toHaveFocus();
    rerender(<Message message={clientMessage({ content: 'Theirs' }, { now })} now={now} canDelete />);
    expect(within(screen.getByRole('group', { name: 'Message actions' })).getAllByRole('button').map((button) => button.textContent)).toEqual(['Delete']);
  });

  it('marks the search text', () => {
    const { container } = render(<Message message={clientMessage({ content: 'Friday works. friday it is.' }, { now })} now={now} highlight="FRIDAY" />);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Friday', 'friday']);
  });
});
