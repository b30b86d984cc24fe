import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { fakeTimerOptions, settle, waitUntil } from '../testing/waitUntil';
import { WebSocketForTests } from '../testing/ws';
import { RealtimeConnection } from './RealtimeConnection';
import type { RealtimeConnectionOptions, RealtimeEventMap } from './types';

let gateway: FakeGateway;
let connection: RealtimeConnection | null = null;

beforeEach(async () => {
  gateway = await startFakeGateway();
  vi.useFakeTimers(fakeTimerOptions);
});

afterEach(async () => {
  connection?.close();
  connection = null;
  vi.useRealTimers();
  await gateway.close();
});

function connect(options: Partial<RealtimeConnectionOptions> = {}) {
  const reconnects: RealtimeEventMap['reconnecting'][] = [];
  const states: string[] = [];
  connection = new RealtimeConnection({ url: () => gateway.url, token: () => 'token-1', WebSocket: WebSocketForTests, ...options });
  connection.on('reconnecting', (event) => reconnects.push(event));
  connection.on('state', ({ state }) => states.push(state));
  connection.connect();
  return { connection, reconnects, states };
}

const authFrames = () => gateway.received.filter((frame) => frame.type === 'authenticate_with_token');
const pings = () => gateway.received.filter((frame) => frame.type === 'ping');

describe('RealtimeConnection', () => {
  it('authenticates with the token and is connected on authSuccess', async () => {
    const { connection, states } = connect();
    expect(connection.state).toBe('connecting');
    await waitUntil(() => connection.state === 'connected', 'connected');
    expect(authFrames()).toEqual([{ type: 'authenticate_with_token', token: 'token-1' }]);
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('pings every 30 s while the pongs come back', async () => {
    const { connection } = connect();
    await waitUntil(() => connection.state === 'connected', 'connected');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(pings()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await waitUntil(() => pings().length === 1, 'first ping');
    await settle();
    await vi.advanceTimersByTimeAsync(30_000);
    await waitUntil(() => pings().length === 2, 'second ping');
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(connection.state).toBe('connected');
  });

  it('marks the connection dead and closes it when no pong arrives within 10 s', async () => {
    gateway.answerPings = false;
    const { connection, reconnects } = connect();
    await waitUntil(() => connection.state === 'connected', 'connected');
    await vi.advanceTimersByTimeAsync(30_000);
    await waitUntil(() => pings().length === 1, 'ping');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(connection.state).toBe('connected');
    await vi.advanceTimersByTimeAsync(1);
    expect(connection.state).toBe('connecting');
    expect(reconnects).toEqual([{ attempt: 1, delayMs: 1_000 }]);
    await waitUntil(() => gateway.sockets.size === 0, 'the server to see the socket close');
  });

  it('gives up an attempt after the 15 s connect timeout', async () => {
    gateway.answerAuth = false;
    const { connection, reconnects } = connect();
    await waitUntil(() => authFrames().length === 1, 'auth frame');
    await vi.advanceTimersByTimeAsync(14_999);
    expect(reconnects).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reconnects).toEqual([{ attempt: 1, delayMs: 1_000 }]);
    expect(connection.state).toBe('connecting');
  });

  it('reconnects with backoff 1, 2, 4, 8, 16 s, then gives up', async () => {
    const { connection, reconnects } = connect();
    await waitUntil(() => connection.state === 'connected', 'connected');
    await gateway.stop();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await waitUntil(() => reconnects.length === attempt, `reconnect ${attempt}`);
      await vi.advanceTimersByTimeAsync(reconnects[attempt - 1]?.delayMs ?? 0);
    }
    await waitUntil(() => connection.state === 'closed', 'closed');
    expect(reconnects.map((event) => event.delayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('caps the backoff at 30 s', async () => {
    const { connection, reconnects } = connect({ maxReconnectAttempts: 7 });
    await waitUntil(() => connection.state === 'connected', 'connected');
    await gateway.stop();
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await waitUntil(() => reconnects.length === attempt, `reconnect ${attempt}`);
      await vi.advanceTimersByTimeAsync(reconnects[attempt - 1]?.delayMs ?? 0);
    }
    await waitUntil(() => connection.state === 'closed', 'closed');
    expect(reconnects.map((event) => event.delayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('does not retry after authError', async () => {
    gateway.tokens.set('good-token', 'alice0000000001');
    const authErrors: unknown[] = [];
    const { connection, reconnects } = connect({ token: () => 'stale-token' });
    connection.on('authError', (frame) => authErrors.push(frame));
    await waitUntil(() => connection.state === 'closed', 'closed');
    await vi.advanceTimersByTimeAsync(120_000);
    await settle();
    expect(authErrors).toEqual([{ type: 'authError', message: 'Invalid token' }]);
    expect(reconnects).toEqual([]);
    expect(authFrames()).toHaveLength(1);
  });

  it('does not reconnect after close() (logout) or once the login is gone', async () => {
    const { connection, reconnects } = connect();
    await waitUntil(() => connection.state === 'connected', 'connected');
    connection.close();
    expect(connection.state).toBe('closed');
    await vi.advanceTimersByTimeAsync(120_000);
    await settle();
    expect(authFrames()).toHaveLength(1);

    let token: string | null = 'token-2';
    const second = connect({ token: () => token });
    await waitUntil(() => second.connection.state === 'connected', 'connected again');
    token = null;
    gateway.dropAll();
    await waitUntil(() => second.connection.state === 'closed', 'closed without a login');
    expect([...reconnects, ...second.reconnects]).toEqual([]);
    second.connection.close();
  });

  it('re-joins its chats with after_seq after a reconnect, so missed messages arrive in order', async () => {
    gateway.append('chat1', 'one');
    gateway.append('chat1', 'two');
    const { connection } = connect();
    const seqs: number[] = [];
    connection.on('new_message', ({ message }) => seqs.push(message.seq));
    connection.join('chat1', 0);
    await waitUntil(() => seqs.length === 2, 'replay');
    expect(connection.lastSeq('chat1')).toBe(2);

    gateway.dropAll();
    await waitUntil(() => connection.state === 'connecting', 'lost');
    gateway.append('chat1', 'three (missed)');
    gateway.append('chat1', 'four (missed)');
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => seqs.length === 4, 'catch-up');
    gateway.append('chat1', 'five (live)');
    await waitUntil(() => seqs.length === 5, 'live message');

    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    const joins = gateway.received.filter((frame) => frame.type === 'join_chat');
    expect(joins).toEqual([
      { type: 'join_chat', chat_id: 'chat1', after_seq: 0 },
      { type: 'join_chat', chat_id: 'chat1', after_seq: 2 },
    ]);
    expect(connection.state).toBe('connected');
    expect(connection.lastSeq('chat1')).toBe(5);
  });

  it('forgets left and removed chats, and sends only when connected', async () => {
    const { connection } = connect();
    expect(connection.send({ type: 'send_message', chat_id: 'chat1', content: 'too early' })).toBe(false);
    connection.join('chat1');
    connection.join('chat2');
    await waitUntil(() => gateway.received.filter((frame) => frame.type === 'join_chat').length === 2, 'joins');
    connection.leave('chat1');
    gateway.push({ type: 'chat_removed', chat_id: 'chat2' });
    await waitUntil(() => connection.lastSeq('chat2') === undefined && gateway.received.some((frame) => frame.type === 'leave_chat'), 'leave');
    gateway.dropAll();
    await waitUntil(() => connection.state === 'connecting', 'lost');
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => connection.state === 'connected', 'reconnected');
    await settle();
    expect(gateway.received.filter((frame) => frame.type === 'join_chat')).toHaveLength(2);
  });
});
