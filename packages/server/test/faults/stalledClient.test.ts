/**
 * Fault matrix, a client that stalls (docs/OPERATIONS.md): a raw `ws` client joins a busy chat and
 * stops reading its TCP socket while another person sends many large messages. The server stops
 * queueing for it past its per-socket limit and closes it with 4008; the client catches up by seq
 * after reconnecting, losing nothing; and a reading client's delivery latency stays close to what
 * it is without the stalled one.
 *
 * How long the client stays stalled after the load is CONFAB_FAULT_STALL_MS (default 2 s): the
 * limit is in bytes, so what matters is the volume sent meanwhile, not the wall time. Past ws's
 * 30 s closing handshake a still-stalled client is cut (1006) instead of reading the 4008.
 */
import { readFileSync } from 'node:fs';
import type { WireMessage } from '@confab/client/protocol';
import { closeCodes } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, registerUser, type RegisteredUser } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/testServer';
import { authenticatedSocket, messageOf, type Frame, type TestSocket } from '../support/wsClient';

const stallMs = Number(process.env['CONFAB_FAULT_STALL_MS'] ?? 2_000);
/** ~27 KB a message: 9,000 three-byte characters. */
const bulk = '€'.repeat(9_000);
const messageBytes = Buffer.byteLength(bulk);
/** The server's per-socket limit (packages/server/src/server.ts). */
const serverBufferBytes = 1024 * 1024;

/** The largest a TCP send buffer may grow to (Linux's tcp_wmem maximum), or 4 MB when unknown. */
function kernelSendBufferBytes(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8').trim().split(/\s+/)[2]) || 4 * 1024 * 1024;
  } catch {
    return 4 * 1024 * 1024;
  }
}

/**
 * Enough per phase to overflow the kernel's buffers (the server's send side; the stalled client's
 * receive side does not grow while nobody reads) and then the server's limit, twice over.
 */
const messagesPerPhase = Math.max(400, Math.ceil((2 * (kernelSendBufferBytes() + serverBufferBytes) + 512 * 1024) / messageBytes));
const inFlight = 4;

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

describe('a client that stalls', () => {
  let testServer: TestServer;
  let ann: RegisteredUser;
  let bob: RegisteredUser;
  let cal: RegisteredUser;
  let chatId: string;
  const sockets: TestSocket[] = [];

  const open = async (user: RegisteredUser) => {
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { messagesPerUserPerSecond: 100_000, wsFramesPerSecond: 100_000 });
    [ann, bob, cal] = await Promise.all([registerUser(testServer, { name: 'Ann' }), registerUser(testServer, { name: 'Bob' }), registerUser(testServer, { name: 'Cal' })]);
    chatId = (await createChat(ann, { name: 'Busy', participants: [bob.record.id, cal.record.id] })).id;
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close().catch(() => undefined)));
    await testServer?.close();
  });

  /**
   * Ann sends `messagesPerPhase` large messages, a few in flight at a time; Bob, reading, times
   * each from Ann's send to its arrival. Answers Bob's latencies in milliseconds.
   */
  async function busyPhase(sender: TestSocket, reader: TestSocket, label: string): Promise<number[]> {
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const arrivals = new Map<string, () => void>();
    const onMessage = (data: Buffer) => {
      const text = data.toString();
      if (!text.includes(`"${label} `)) return;
      const frame = JSON.parse(text) as Frame;
      if (frame.type !== 'new_message') return;
      const key = messageOf(frame).content.split(' ', 2).join(' ');
      const started = sentAt.get(key);
      if (started === undefined) return;
      latencies.push(performance.now() - started);
      arrivals.get(key)?.();
    };
    reader.socket.on('message', onMessage);
    try {
      const pending: Promise<void>[] = [];
      for (let index = 0; index < messagesPerPhase; index += 1) {
        const key = `${label} ${index}`;
        pending.push(new Promise<void>((resolve) => arrivals.set(key, resolve)));
        sentAt.set(key, performance.now());
        sender.send({ type: 'send_message', chat_id: chatId, content: `${key} ${bulk}` });
        if (index >= inFlight) await pending[index - inFlight];
      }
      await Promise.all(pending);
    } finally {
      reader.socket.off('message', onMessage);
    }
    // Reader and sender queue every frame they receive: drop them, the phase has been measured.
    reader.received.length = 0;
    sender.received.length = 0;
    return latencies;
  }

  it('is closed with 4008 past its buffer, catches up by seq on reconnect, and does not slow the others', { timeout: 120_000 }, async () => {
    const sender = await open(ann);
    const reader = await open(bob);
    await sender.join(chatId);
    await reader.join(chatId);

    const without = await busyPhase(sender, reader, 'calm');

    const stalled = await open(cal);
    const { joined } = await stalled.join(chatId);
    const seqBefore = Number(joined['last_seq']);
    // Stop reading the TCP socket: frames pile up in the kernel, then in the server's buffer.
    const tcp = (stalled.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    tcp.pause();
    const withStalled = await busyPhase(sender, reader, 'busy');
    await new Promise((resolve) => setTimeout(resolve, stallMs));
    tcp.resume();

    const closed = await Promise.race([stalled.closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the stalled client was not closed')), 15_000))]);
    expect(closed).toEqual({ code: closeCodes.tooSlow, reason: 'Too slow: reconnect and resume with after_seq' });
    const before: WireMessage[] = stalled.received.filter((frame) => frame.type === 'new_message').map(messageOf);
    const seqAfter = seqBefore + messagesPerPhase;
    // Cut off before the end: what it got is a gapless start of the phase, and not all of it.
    expect(before.map((message) => message.seq)).toEqual(Array.from({ length: before.length }, (_, index) => seqBefore + 1 + index));
    expect(before.length).toBeLessThan(messagesPerPhase);

    // Back: join with after_seq, then page the record API for what one replay does not hold.
    const back = await open(cal);
    const lastSeen = before.at(-1)?.seq ?? seqBefore;
    const { replayed, joined: rejoined } = await back.join(chatId, lastSeen);
    const caughtUp = [...before, ...replayed].map((message) => message.seq);
    if (rejoined['has_more'] === true) {
      const rest = await cal.pb.collection('messages').getFullList({ filter: cal.pb.filter('chat = {:chat} && seq > {:seq}', { chat: chatId, seq: caughtUp.at(-1) ?? lastSeen }), sort: 'seq', batch: 500 });
      caughtUp.push(...rest.map((record) => Number(record['seq'])));
    }
    expect(caughtUp).toEqual(Array.from({ length: seqAfter - seqBefore }, (_, index) => seqBefore + 1 + index));

    const figures = {
      withoutP50: percentile(without, 0.5),
      withoutP99: percentile(without, 0.99),
      withP50: percentile(withStalled, 0.5),
      withP99: percentile(withStalled, 0.99),
      receivedBeforeClose: before.length,
      replayed: replayed.length,
    };
    console.info(`stalled client: ${JSON.stringify(figures)}`);
    // Generous: a shared, loaded 2-core machine is noisy; a server blocked on the stalled socket would be far off.
    expect(figures.withP50).toBeLessThan(figures.withoutP50 * 2 + 50);
    expect(figures.withP99).toBeLessThan(figures.withoutP99 * 3 + 250);
  });
});
