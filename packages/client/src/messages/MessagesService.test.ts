import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfabClient } from '../client/ConfabClient';
import type { WireMessage } from '../protocol';
import { connectedClient, seedMessages } from '../testing/connectedClient';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { fakeTimerOptions, settle, waitUntil } from '../testing/waitUntil';

const alice = 'alice0000000001';
let server: FakeServer;
let gateway: FakeGateway;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  gateway = await startFakeGateway();
  server.addChat({ id: 'chat1', name: 'Team', participants: [alice, 'bob000000000001'] });
  seedMessages(server, gateway, 'chat1', 5);
  client = await connectedClient(server, gateway, { messages: { pageSize: 3 } });
});

afterEach(async () => {
  client.logout();
  vi.useRealTimers();
  await gateway.close();
  await server.close();
});

const state = () => client.store.getState();
const seqs = () => state().messages.map((message) => message.seq);
const sends = () => gateway.received.filter((frame) => frame.type === 'send_message');
const statusOf = (clientId: string | undefined) => state().messages.find((message) => message.client_id === clientId)?.status;

function wire(seq: number, content = `message ${seq}`): WireMessage {
  return {
    message_id: `wire${seq}`,
    chat_id: 'chat1',
    author_id: 'bob000000000001',
    author_name: 'Bob',
    author_username: 'bob',
    content,
    created_at: '2026-01-01 00:00:00.000Z',
    message_type: 'regular',
    seq,
    is_agent: false,
  };
}

describe('messages.open and loadOlder', () => {
  it('sets the current chat, loads the latest page in seq order and joins after it', async () => {
    await client.messages.open('chat1');
    expect(state()).toMatchObject({ currentChat: { id: 'chat1' }, isCurrentUserAdmin: true, hasOlderMessages: true, loadingMessages: false });
    expect(seqs()).toEqual([3, 4, 5]);
    expect(state().messages[0]).toMatchObject({ author_username: 'alice', content: 'message 3', status: 'sent', is_agent: false });
    await waitUntil(() => gateway.received.some((frame) => frame.type === 'join_chat'), 'join');
    expect(gateway.received.find((frame) => frame.type === 'join_chat')).toEqual({ type: 'join_chat', chat_id: 'chat1', after_seq: 5 });
  });

  it('pages older history by seq keyset and prepends it', async () => {
    await client.messages.open('chat1');
    const [first, second] = [client.messages.loadOlder('chat1'), client.messages.loadOlder('chat1')];
    expect(first).toBe(second); // one request for concurrent calls
    expect(await first).toEqual({ hasMore: false });
    expect(seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(state().hasOlderMessages).toBe(false);
    const pages = server.requests.filter((request) => request.path.startsWith('/api/collections/messages/records'));
    expect(decodeURIComponent(pages[1]?.path ?? '')).toContain('filter=chat = "chat1" && seq < 3');
    expect(await client.messages.loadOlder('chat1')).toEqual({ hasMore: false });
  });

  it('resolves a chat missing from store.chats and ignores answers for a chat no longer open', async () => {
    server.addChat({ id: 'chat2', participants: [alice] });
    const stale = client.messages.open('chat1');
    await client.messages.open('chat2');
    await stale;
    expect(state().currentChat?.id).toBe('chat2');
    expect(state().messages).toEqual([]);
    expect(gateway.received.filter((frame) => frame.type === 'join_chat').map((frame) => frame.chat_id)).not.toContain('chat1');
  });
});

describe('messages.prefetch', () => {
  const pageRequests = () => server.requests.filter((request) => request.path.startsWith('/api/collections/messages/records')).length;
  const chatRequests = (id: string) => server.requests.filter((request) => request.path.startsWith(`/api/collections/chats/records/${id}`)).length;

  it('lets the next open of the same chat use its answers, once', async () => {
    server.addChat({ id: 'chat2', name: 'Later', participants: [alice] });
    client.messages.prefetch('chat2');
    await client.messages.open('chat2');
    expect(state()).toMatchObject({ currentChat: { id: 'chat2', name: 'Later' }, loadingMessages: false });
    expect([pageRequests(), chatRequests('chat2')]).toEqual([1, 1]);
    await client.messages.open('chat2');
    expect([pageRequests(), chatRequests('chat2')]).toEqual([2, 2]);
  });

  it('is not used for another chat, nor once it is stale (over 10 s old)', async () => {
    server.addChat({ id: 'chat2', participants: [alice] });
    client.messages.prefetch('chat2');
    await client.messages.open('chat1');
    expect(pageRequests()).toBe(2);
    expect(seqs()).toEqual([3, 4, 5]);

    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    client.messages.prefetch('chat1');
    clock.mockReturnValue(now + 10_001);
    await client.messages.open('chat1');
    clock.mockRestore();
    expect(pageRequests()).toBe(4);
    expect(seqs()).toEqual([3, 4, 5]);
  });

  it('is forgotten with the session (logout clears the messages service)', async () => {
    client.messages.prefetch('chat1');
    client.messages.clear();
    await client.messages.open('chat1');
    expect(pageRequests()).toBe(2);
  });
});

describe('messages merge', () => {
  beforeEach(async () => {
    await client.messages.open('chat1');
    await waitUntil(() => gateway.received.some((frame) => frame.type === 'join_chat'), 'join');
  });

  it('merges live messages by seq, ignoring a seq it already holds, in seq order', async () => {
    gateway.push({ type: 'new_message', message: wire(7) });
    gateway.push({ type: 'new_message', message: wire(6) });
    gateway.push({ type: 'new_message', message: wire(6, 'the same seq again') });
    gateway.push({ type: 'new_message', message: wire(4, 'an old seq again') });
    gateway.push({ type: 'new_message', message: { ...wire(8), chat_id: 'another-chat' } });
    await waitUntil(() => seqs().length === 5, 'live messages');
    await settle();
    expect(seqs()).toEqual([3, 4, 5, 6, 7]);
    expect(state().messages.map((message) => message.content)).toEqual(['message 3', 'message 4', 'message 5', 'message 6', 'message 7']);
  });

  it('catches up after a dropped connection without gaps or duplicates', async () => {
    gateway.dropAll();
    await waitUntil(() => state().connectionState === 'connecting', 'lost');
    gateway.append('chat1', 'sent while alice was away');
    await waitUntil(() => state().connectionState === 'connected', 'reconnected', 5000);
    await waitUntil(() => seqs().length === 4, 'catch-up');
    expect(seqs()).toEqual([3, 4, 5, 6]);
    expect(state().messages.at(-1)?.content).toBe('sent while alice was away');
  });
});

describe('messages.send', () => {
  beforeEach(async () => {
    await client.messages.open('chat1');
    await waitUntil(() => gateway.received.some((frame) => frame.type === 'join_chat'), 'join');
  });

  it('shows a pending message at once and replaces it with the server message when confirmed', async () => {
    const pending = client.messages.send('chat1', '  hello  ');
    expect(pending).toMatchObject({ status: 'pending', seq: null, content: 'hello', author_id: alice, message_id: pending.client_id });
    expect(state().messages.at(-1)).toEqual(pending);
    await waitUntil(() => state().messages.at(-1)?.status === 'sent', 'confirmation');
    expect(seqs()).toEqual([3, 4, 5, 6]);
    expect(state().messages.at(-1)).toMatchObject({ content: 'hello', seq: 6, client_id: pending.client_id, status: 'sent' });
    expect(sends()).toEqual([{ type: 'send_message', chat_id: 'chat1', content: 'hello', client_id: pending.client_id }]);
  });

  it('keeps unconfirmed messages after the confirmed ones', async () => {
    gateway.swallowSends = true;
    const first = client.messages.send('chat1', 'first');
    client.messages.send('chat1', 'second');
    gateway.push({ type: 'new_message', message: wire(6, 'first'), client_id: first.client_id });
    await waitUntil(() => state().messages.some((message) => message.seq === 6), 'first confirmed');
    expect(state().messages.map((message) => [message.seq, message.content, message.status])).toEqual([
      [3, 'message 3', 'sent'],
      [4, 'message 4', 'sent'],
      [5, 'message 5', 'sent'],
      [6, 'first', 'sent'],
      [null, 'second', 'pending'],
    ]);
  });

  it('marks a message failed when unconfirmed after 10 s, and retry resends the same client_id once stored', async () => {
    vi.useFakeTimers(fakeTimerOptions);
    gateway.swallowSends = true;
    const message = client.messages.send('chat1', 'lost in transit');
    await waitUntil(() => sends().length === 1, 'send');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(state().messages.at(-1)?.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(state().messages.at(-1)).toMatchObject({ status: 'failed', client_id: message.client_id });

    gateway.swallowSends = false;
    client.messages.retry(message.client_id ?? '');
    expect(state().messages.at(-1)?.status).toBe('pending');
    await waitUntil(() => state().messages.at(-1)?.status === 'sent', 'confirmation of the retry');
    expect(sends().map((frame) => frame.client_id)).toEqual([message.client_id, message.client_id]);
    expect(gateway.log.get('chat1')?.filter((stored) => stored.content === 'lost in transit')).toHaveLength(1);
    expect(state().messages.filter((shown) => shown.content === 'lost in transit')).toHaveLength(1);
    expect(seqs()).toEqual([3, 4, 5, 6]);
  });

  it('marks in-flight messages failed when the socket drops, holds one written while reconnecting and sends it once connected', async () => {
    gateway.swallowSends = true;
    const inFlight = client.messages.send('chat1', 'in flight');
    await waitUntil(() => sends().length === 1, 'send');
    await gateway.stop();
    await waitUntil(() => statusOf(inFlight.client_id) === 'failed', 'failed on close');
    expect(state().connectionState).toBe('connecting');

    const offline = client.messages.send('chat1', 'written while reconnecting');
    expect(statusOf(offline.client_id)).toBe('pending');
    expect(sends()).toHaveLength(1); // nothing goes out while disconnected

    gateway.swallowSends = false;
    await gateway.restart();
    await waitUntil(() => statusOf(offline.client_id) === 'sent', 'sent once reconnected', 8_000);
    expect(sends().map((frame) => frame.client_id)).toEqual([inFlight.client_id, offline.client_id]);
    expect(gateway.log.get('chat1')?.filter((stored) => stored.content === 'written while reconnecting')).toHaveLength(1);
  });

  it('fails a message held while reconnecting when the send deadline passes first', async () => {
    await gateway.stop();
    await waitUntil(() => state().connectionState === 'connecting', 'reconnecting');
    vi.useFakeTimers(fakeTimerOptions);
    const offline = client.messages.send('chat1', 'never connected');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(statusOf(offline.client_id)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(statusOf(offline.client_id)).toBe('failed');
    expect(sends()).toHaveLength(0);
  });

  it('rejects empty content and marks a message refused by the server failed', async () => {
    expect(() => client.messages.send('chat1', '   ')).toThrow('Please enter a message');
    gateway.swallowSends = true;
    const refused = client.messages.send('chat1', 'too long, say');
    gateway.push({ type: 'error', code: 'invalid_message', message: 'Message is too long', ref: refused.client_id ?? '' });
    await waitUntil(() => state().messages.at(-1)?.status === 'failed', 'refused');
  });

  it.each(['rate_limited', 'not_a_participant'] as const)('fails a send refused with %s at once, and Retry sends it again', async (code) => {
    gateway.swallowSends = true;
    const refused = client.messages.send('chat1', 'too fast, say');
    await waitUntil(() => sends().length >= 1, 'send');
    gateway.push({ type: 'error', code, message: 'refused', ref: refused.client_id ?? '' });
    await waitUntil(() => state().messages.at(-1)?.status === 'failed', 'refused');
    const before = sends().length;
    client.messages.retry(refused.client_id ?? '');
    expect(state().messages.at(-1)?.status).toBe('pending');
    await waitUntil(() => sends().length === before + 1, 'sent again');
  });
});
