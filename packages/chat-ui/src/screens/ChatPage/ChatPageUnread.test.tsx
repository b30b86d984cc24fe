import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { stubMessageListLayout } from '../../../test/layout';
import { ChatPage } from './ChatPage';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };
const chatId = 'chat_design_001';
const readRoute = `POST /api/chats/${chatId}/read`;
/** The stubbed layout: a 600 px view, every row the list's 76 px estimate (jsdom measures nothing). */
const viewPx = 600;
const rowPx = 76;

let visibility: DocumentVisibilityState = 'visible';

beforeEach(() => {
  stubMessageListLayout(viewPx);
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => vi.restoreAllMocks());

/**
 * Bob's `count` messages in a chat Alice has read up to `lastRead` (undefined: all of it), opened
 * with the chat list loaded (as in the app, where the sidebar loads it). `calls` times each markRead.
 */
async function openChat(count: number, lastRead: number | undefined) {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addChat({ id: chatId, name: 'Design', participants: [alice.id, bob.id], ...(lastRead === undefined ? {} : { last_read: { [alice.id]: lastRead } }) });
  backend.addMessages(chatId, count, [bob.id]);
  const result = renderWithConfab(<ChatPage chatId={chatId} />, { backend });
  const calls: Array<{ seq: number; at: number }> = [];
  const markRead = result.client.chats.markRead.bind(result.client.chats);
  vi.spyOn(result.client.chats, 'markRead').mockImplementation((id, seq) => {
    calls.push({ seq, at: Date.now() });
    return markRead(id, seq);
  });
  await act(async () => {
    await result.client.login('alice', 'wonderland');
    await result.client.chats.list();
  });
  const log = await screen.findByRole('log', { name: 'Messages' });
  await within(log).findByText(`Message ${count}`);
  const reads = () => backend.requests.filter((request) => request.route === readRoute).map((request) => request.body['seq']);
  return { ...result, log, reads, calls };
}

const bottomOf = (count: number) => count * rowPx - viewPx;

describe('ChatPage unread messages', () => {
  it("opens at a 'New messages' divider above the first unread message when more is unread than fits", async () => {
    const { log } = await openChat(40, 30);
    const divider = await screen.findByRole('separator', { name: 'New messages' });
    expect(divider.closest('.cf-message-list__row')).toHaveTextContent('Message 31');
    // The divider's row near the top of the view (16 px of room above it), not the bottom.
    expect(log.scrollTop).toBe(30 * rowPx - 16);
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Jump to first unread' })).not.toBeInTheDocument();
  });

  it('opens at the bottom with a few unread, the divider in view', async () => {
    const { log } = await openChat(40, 38);
    const divider = await screen.findByRole('separator', { name: 'New messages' });
    expect(divider.closest('.cf-message-list__row')).toHaveTextContent('Message 39');
    expect(log.scrollTop).toBe(bottomOf(40));
    expect(screen.queryByRole('button', { name: /^Jump to/ })).not.toBeInTheDocument();
  });

  it('shows no divider when everything was read, and opens at the bottom', async () => {
    const { log } = await openChat(40, undefined);
    await screen.findByText('Message 40');
    expect(screen.queryByRole('separator', { name: 'New messages' })).not.toBeInTheDocument();
    expect(log.scrollTop).toBe(bottomOf(40));
  });

  it("'Jump to latest' and 'Jump to first unread' scroll there, from the keyboard too", async () => {
    const { log, user } = await openChat(40, 30);
    await screen.findByRole('separator', { name: 'New messages' });
    screen.getByRole('button', { name: 'Jump to latest' }).focus();
    await user.keyboard('{Enter}');
    expect(log.scrollTop).toBe(bottomOf(40));
    expect(log).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).not.toBeInTheDocument();
    // The divider is now above the view.
    await user.click(screen.getByRole('button', { name: 'Jump to first unread' }));
    expect(log.scrollTop).toBe(30 * rowPx - 16);
    expect(screen.queryByRole('button', { name: 'Jump to first unread' })).not.toBeInTheDocument();
    expect(screen.getByRole('separator', { name: 'New messages' })).toBeInTheDocument();
  });

  it('keeps the divider where it was while the messages are read', async () => {
    const { log, client } = await openChat(40, 30);
    await screen.findByRole('separator', { name: 'New messages' });
    act(() => {
      log.scrollTop = bottomOf(40);
    });
    await waitFor(() => expect(client.store.getState().chats[0]).toMatchObject({ last_read_seq: 40, unread_count: 0 }));
    expect(screen.getByRole('separator', { name: 'New messages' }).closest('.cf-message-list__row')).toHaveTextContent('Message 31');
  });

  it('marks read what has been on screen, at most once per 500 ms', async () => {
    const { log, reads, calls, backend } = await openChat(40, 30);
    await screen.findByRole('separator', { name: 'New messages' });
    // Rows 31 to 37 are wholly in the view that opened at the divider.
    await waitFor(() => expect(reads()).toEqual([37]));
    act(() => {
      log.scrollTop = 30 * rowPx;
    });
    act(() => {
      log.scrollTop = bottomOf(40);
    });
    // Both scrolls came within 500 ms of the first call: one more call, later, with what is on screen then.
    expect(calls.map((call) => call.seq)).toEqual([37]);
    await waitFor(() => expect(reads()).toEqual([37, 40]));
    expect(calls.map((call) => call.seq)).toEqual([37, 40]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(490);
    expect(backend.chats.find((chat) => chat.id === chatId)?.last_read?.[alice.id]).toBe(40);
  });

  it('marks nothing read in a hidden tab until it is shown again', async () => {
    visibility = 'hidden';
    const { reads, backend } = await openChat(40, 38);
    await screen.findByRole('separator', { name: 'New messages' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(reads()).toEqual([]);
    expect(backend.chats.find((chat) => chat.id === chatId)?.last_read?.[alice.id]).toBe(38);
    visibility = 'visible';
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(reads()).toEqual([40]));
  });
});
