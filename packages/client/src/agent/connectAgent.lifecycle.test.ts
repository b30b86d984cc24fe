import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientFrame } from '../protocol';
import { fakeTimerOptions, settle, waitUntil } from '../testing/waitUntil';
import { NodeWebSocket } from '../testing/ws';
import { connectAgent } from './connectAgent';
import { startFakeAgentServer, testApiKey } from './fakeAgentServer';
import type { FakeAgentServer } from './fakeAgentServer';
import type { AgentConnection, AgentEventMap, ConnectAgentOptions, Reply } from './types';

/* The connection's life: reconnects, the heartbeat, a refused key, close(). */

let server: FakeAgentServer;
let agent: AgentConnection | null = null;

beforeEach(async () => {
  server = await startFakeAgentServer();
  vi.useFakeTimers(fakeTimerOptions);
});

afterEach(async () => {
  await agent?.close();
  agent = null;
  vi.useRealTimers();
  await server.close();
});

function start(options: Partial<ConnectAgentOptions> = {}) {
  const logger = { error: vi.fn() };
  const disconnects: AgentEventMap['disconnected'][] = [];
  const errors: AgentEventMap['error'][] = [];
  agent = connectAgent({ url: server.url, apiKey: testApiKey, WebSocket: NodeWebSocket, logger, ...options });
  agent.on('disconnected', (event) => disconnects.push(event));
  agent.on('error', (event) => errors.push(event));
  return { agent, logger, disconnects, errors };
}

const framesOf = <Type extends ClientFrame['type']>(type: Type) =>
  server.received.filter((frame): frame is Extract<ClientFrame, { type: Type }> => frame.type === type);

describe('connectAgent: the connection', () => {
  it('reconnects after the server drops the socket, authenticates again and gets the unacknowledged mentions', async () => {
    const { agent, disconnects } = start();
    const handled: string[] = [];
    await agent.ready;
    server.dropAll();
    await waitUntil(() => disconnects.length === 1, 'the drop');
    expect(disconnects).toEqual([{ code: 1006, retryInMs: 1_000 }]);
    expect(agent.status).toBe('connecting');
    // Mentioned while offline: the server queues it and sends it on the next authentication.
    server.mention({ content: 'while away' });
    agent.onMention((mention) => {
      handled.push(mention.content);
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => agent.status === 'connected', 'the reconnect');
    expect(framesOf('authenticate_with_api_key')).toHaveLength(2);
    await waitUntil(() => handled.length === 1, 'the queued mention');
    expect(handled).toEqual(['while away']);
  });

  it('retries with backoff, 1 s doubling to 30 s, then every 30 s for as long as the server is away', async () => {
    const { agent, disconnects } = start();
    await agent.ready;
    await server.close(); // now every attempt is refused
    const delays = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000];
    for (const [index, delayMs] of delays.entries()) {
      await waitUntil(() => disconnects.length === index + 1, `disconnect ${index + 1}`);
      expect(disconnects[index]?.retryInMs).toBe(delayMs);
      await vi.advanceTimersByTimeAsync(delayMs);
    }
    expect(agent.status).toBe('connecting');
  });

  it('pings every 30 s and reconnects when a pong does not come within 10 s', async () => {
    const { agent, disconnects } = start();
    await agent.ready;
    await vi.advanceTimersByTimeAsync(30_000);
    await waitUntil(() => framesOf('ping').length === 1, 'the first ping');
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(agent.status).toBe('connected');
    server.answerPings = false;
    await vi.advanceTimersByTimeAsync(20_000);
    await waitUntil(() => framesOf('ping').length === 2, 'the second ping');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(agent.status).toBe('connected');
    await vi.advanceTimersByTimeAsync(1);
    expect(agent.status).toBe('connecting');
    expect(disconnects).toEqual([{ code: null, retryInMs: 1_000 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => agent.status === 'connected', 'the reconnect');
  });

  it('rejects ready on a wrong key with a clear message, logs it, and does not reconnect', async () => {
    const { agent, logger, disconnects, errors } = start({ apiKey: `cfk_${'b'.repeat(43)}` });
    await expect(agent.ready).rejects.toMatchObject({ name: 'AgentError', code: 'invalid_api_key' });
    await expect(agent.ready).rejects.toThrow(/^Invalid API key: the server refused it \(Invalid API key\)\. Check the key/);
    expect(agent.status).toBe('closed');
    expect(disconnects).toEqual([{ code: 4001, retryInMs: null }]);
    expect(errors.map(({ error }) => error.code)).toEqual(['invalid_api_key']);
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/^Invalid API key/));
    await vi.advanceTimersByTimeAsync(120_000);
    await settle();
    expect(framesOf('authenticate_with_api_key')).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops for good when the server closes with 4001 after the key was accepted (rotated or deleted)', async () => {
    const { agent, errors } = start();
    await agent.ready;
    server.closeAll(4001);
    await waitUntil(() => agent.status === 'closed', 'closed');
    expect(errors.map(({ error }) => error.message)).toEqual([expect.stringMatching(/^Invalid API key: the server revoked it/)]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(framesOf('authenticate_with_api_key')).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a whole reply written while disconnected after the reconnect, with the same client_id', async () => {
    const { agent } = start();
    let reply: Reply | null = null;
    agent.onMention((_mention, given) => {
      reply = given;
    });
    await agent.ready;
    server.mention();
    await waitUntil(() => reply !== null, 'the handler');
    server.dropAll();
    await waitUntil(() => agent.status === 'connecting', 'the drop');
    const sent = (reply as unknown as Reply).send('written offline');
    const stream = (reply as unknown as Reply).stream();
    stream.write('lost');
    const streamed = stream.end();
    await expect(streamed).rejects.toMatchObject({ code: 'disconnected' });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(sent).resolves.toMatchObject({ content: 'written offline' });
    expect(framesOf('send_message')).toHaveLength(1);
    expect(framesOf('stream_start')).toHaveLength(0);
  });

  it('rejects the end of a stream whose connection dropped mid-stream', async () => {
    const { agent } = start();
    let reply: Reply | null = null;
    agent.onMention((_mention, given) => {
      reply = given;
    });
    await agent.ready;
    server.mention();
    await waitUntil(() => reply !== null, 'the handler');
    const stream = (reply as unknown as Reply).stream();
    stream.write('half');
    await waitUntil(() => framesOf('stream_append').length === 1, 'the first piece');
    server.dropAll();
    await waitUntil(() => agent.status === 'connecting', 'the drop');
    await vi.advanceTimersByTimeAsync(1_000);
    await waitUntil(() => agent.status === 'connected', 'the reconnect');
    stream.write(' and the rest');
    await expect(stream.end()).rejects.toThrow('The connection dropped during the streamed reply');
    expect(framesOf('stream_append')).toHaveLength(1);
    expect(framesOf('stream_end')).toHaveLength(0);
  });

  it('close() closes the socket, clears every timer and rejects waiting replies; nothing reconnects', async () => {
    const { agent } = start();
    let sent: Promise<unknown> | null = null;
    let handlerReply: Reply | null = null;
    agent.onMention((_mention, reply) => {
      handlerReply = reply;
      sent = reply.send('never confirmed');
    });
    await agent.ready;
    server.swallowReplies = true;
    server.mention();
    await waitUntil(() => sent !== null, 'the handler');
    expect(vi.getTimerCount()).toBeGreaterThan(0); // heartbeat and the reply's timeout
    await agent.close();
    expect(agent.status).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
    await expect(sent).rejects.toMatchObject({ code: 'closed' });
    // A handler still running after close() gets a rejection at once, not a timer.
    const late = handlerReply as unknown as Reply;
    await expect(late.send('too late')).rejects.toMatchObject({ code: 'closed' });
    const stream = late.stream();
    stream.write('too late');
    await expect(stream.end()).rejects.toMatchObject({ code: 'closed' });
    expect(vi.getTimerCount()).toBe(0);
    await waitUntil(() => server.sockets.size === 0, 'the server to see the socket close');
    await vi.advanceTimersByTimeAsync(120_000);
    await settle();
    expect(framesOf('authenticate_with_api_key')).toHaveLength(1);
  });

  it('close() while waiting to reconnect clears the retry, and before the first connection rejects ready', async () => {
    const { agent } = start();
    await agent.ready;
    server.dropAll();
    await waitUntil(() => agent.status === 'connecting', 'the drop');
    await agent.close();
    expect(vi.getTimerCount()).toBe(0);

    const early = start();
    await early.agent.close();
    await expect(early.agent.ready).rejects.toThrow('The agent was closed before it connected.');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with reconnect: false, a dropped connection ends it', async () => {
    const { agent, disconnects } = start({ reconnect: false });
    await agent.ready;
    server.dropAll();
    await waitUntil(() => agent.status === 'closed', 'closed');
    expect(disconnects).toEqual([{ code: 1006, retryInMs: null }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with reconnect: false and no server, ready rejects instead of waiting forever', async () => {
    await server.close();
    const { agent } = start({ reconnect: false });
    await expect(agent.ready).rejects.toMatchObject({ code: 'disconnected' });
    expect(agent.status).toBe('closed');
    expect(vi.getTimerCount()).toBe(0);
  });
});
