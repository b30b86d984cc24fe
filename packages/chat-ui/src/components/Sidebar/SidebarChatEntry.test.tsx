import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { Sidebar } from './Sidebar';

/** A record time `minutes` after the fake server's epoch (its own stamps start there). */
const stamp = (minutes: number) => new Date(Date.UTC(2026, 0, 1) + minutes * 60_000).toISOString().replace('T', ' ');

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };

/** Alice's chats on the fake server, newest activity first, each with Bob's messages after her read position. */
async function renderSidebar(activeChatId?: string) {
  const backend = createFakeBackend({ users: [alice, bob] });
  const chat = (id: string, name: string, minutes: number, extra: { last_read?: Record<string, number>; muted_by?: string[] } = {}) =>
    backend.addChat({ id, name, participants: [alice.id, bob.id], updated: stamp(minutes), ...extra });
  chat('chat_launch_001', 'Launch Plan', 60, { last_read: { [alice.id]: 2 } });
  chat('chat_review_001', 'Review', 50, { last_read: { [alice.id]: 1 } });
  chat('chat_quiet_0001', 'Quiet', 40, { last_read: { [alice.id]: 0 }, muted_by: [alice.id] });
  chat('chat_loud_00001', 'Loud', 30, { last_read: { [alice.id]: 0 }, muted_by: [alice.id] });
  chat('chat_busy_00001', 'Busy', 20, { last_read: { [alice.id]: 0 } });
  chat('chat_read_00001', 'All read', 10);
  backend.addMessages('chat_launch_001', 5, [bob.id]);
  backend.addMessages('chat_review_001', 4, [bob.id], (index) => (index % 2 === 1 ? '@alice can you look?' : 'Draft'));
  backend.addMessages('chat_quiet_0001', 6, [bob.id]);
  backend.addMessages('chat_loud_00001', 2, [bob.id], () => 'ping @alice');
  backend.addMessages('chat_busy_00001', 150, [bob.id]);
  backend.addMessages('chat_read_00001', 3, [bob.id]);
  const result = renderWithConfab(<Sidebar activeChatId={activeChatId} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  await act(() => result.client.chats.list());
  return { ...result, list: screen.getByRole('navigation', { name: 'Chats' }) };
}

const badgeOf = (button: HTMLElement) => button.querySelector('.cf-sidebar__unread-badge, .cf-sidebar__unread-dot');

describe('Sidebar unread state', () => {
  it('names each chat with its unread and mention counts, in the order of the list', async () => {
    const { list } = await renderSidebar();
    const names = ['Launch Plan, 3 unread', 'Review, 3 unread, 2 mentions', 'Quiet, unread', 'Loud, unread, 2 mentions', 'Busy, 150 unread', 'All read'];
    expect(names.map((name) => within(list).getByRole('link', { name, description: 'No description' }))).toEqual(within(list).getAllByRole('link'));
  });

  it('shows a count badge and a bold name; mentions in the accent badge; 99+ above 99', async () => {
    const { list } = await renderSidebar();
    const launch = within(list).getByRole('link', { name: 'Launch Plan, 3 unread' });
    expect(launch).toHaveClass('cf-sidebar__chat--unread');
    expect(badgeOf(launch)).toHaveTextContent('3');
    expect(badgeOf(launch)).toHaveClass('cf-sidebar__unread-badge--count');
    const review = within(list).getByRole('link', { name: 'Review, 3 unread, 2 mentions' });
    expect(badgeOf(review)).toHaveTextContent('2');
    expect(badgeOf(review)).toHaveClass('cf-sidebar__unread-badge--mention');
    expect(badgeOf(within(list).getByRole('link', { name: 'Busy, 150 unread' }))).toHaveTextContent('99+');
    const read = within(list).getByRole('link', { name: 'All read' });
    expect(read).not.toHaveClass('cf-sidebar__chat--unread');
    expect(badgeOf(read)).toBeNull();
  });

  it('shows a muted chat as a dot without a count, unless it has mentions', async () => {
    const { list } = await renderSidebar();
    const quiet = within(list).getByRole('link', { name: 'Quiet, unread' });
    expect(badgeOf(quiet)).toHaveClass('cf-sidebar__unread-dot');
    expect(badgeOf(quiet)).toHaveTextContent('');
    const loud = within(list).getByRole('link', { name: 'Loud, unread, 2 mentions' });
    expect(badgeOf(loud)).toHaveClass('cf-sidebar__unread-badge--mention');
    expect(badgeOf(loud)).toHaveTextContent('2');
  });

  it('shows no unread state on the open chat', async () => {
    const { list } = await renderSidebar('chat_launch_001');
    const open = within(list).getByRole('link', { name: 'Launch Plan' });
    expect(open).toHaveAttribute('aria-current', 'page');
    expect(open).not.toHaveClass('cf-sidebar__chat--unread');
    expect(badgeOf(open)).toBeNull();
  });

  it('follows the client: marking a chat read clears its badge', async () => {
    const { list, client } = await renderSidebar();
    await act(() => client.chats.markRead('chat_launch_001', 5));
    await waitFor(() => expect(within(list).getByRole('link', { name: 'Launch Plan' })).not.toHaveClass('cf-sidebar__chat--unread'));
    expect(badgeOf(within(list).getByRole('link', { name: 'Launch Plan' }))).toBeNull();
  });
});
