import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { agentAvatarColor, avatarColor, type ChartMessage as ChartData } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { clientMessage, searchResultsData } from '../../testing/builders';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
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

  it('shows pending and failed states; Retry sends the client id', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(<Message message={clientMessage({ content: 'x', status: 'pending', client_id: 'local-1' }, { now })} now={now} onRetry={onRetry} />);
    expect(screen.getByRole('status')).toHaveTextContent('Sending...');
    rerender(<Message message={clientMessage({ content: 'x', status: 'failed', client_id: 'local-1' }, { now })} now={now} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to send.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledWith('local-1');
  });

  it('marks the search text', () => {
    const { container } = render(<Message message={clientMessage({ content: 'Friday works. friday it is.' }, { now })} now={now} highlight="FRIDAY" />);
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Friday', 'friday']);
  });
});
