import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientFrame, Mention } from '../protocol';
import { fakeTimerOptions, settle, waitUntil } from '../testing/waitUntil';
import { NodeWebSocket } from '../testing/ws';
import { connectAgent } from './connectAgent';
import { AgentError } from './errors';
import { startFakeAgentServer, testApiKey, testIdentity } from './fakeAgentServer';
import type { FakeAgentServer } from './fakeAgentServer';
import type { AgentConnection, AgentEventMap, ConnectAgentOptions, Reply } from './types';

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
  const events = { disconnected: [] as AgentEventMap['disconnected'][], errors: [] as AgentEventMap['error'][], replies: [] as AgentEventMap['reply'][] };
  agent = connectAgent({ url: server.url, apiKey: testApiKey, WebSocket: NodeWebSocket, logger, ...options });
  agent.on('disconnected', (event) => events.disconnected.push(event));
  agent.on('error', (event) => events.errors.push(event));
  agent.on('reply', (event) => events.replies.push(event));
  return { agent, logger, events };
}

const framesOf = <Type extends ClientFrame['type']>(type: Type) =>
  server.received.filter((frame): frame is Extract<ClientFrame, { type: Type }> => frame.type === type);

/** A promise with its resolve, to hold a handler open. */
function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('connectAgent', () => {
  it('authenticates with the API key and resolves ready with its identity', async () => {
    const { agent } = start();
    const statuses: string[] = [];
    agent.on('status', ({ status }) => statuses.push(status));
    expect(agent.status).toBe('connecting');
    await expect(agent.ready).resolves.toEqual(testIdentity);
    expect(framesOf('authenticate_with_api_key')).toEqual([{ type: 'authenticate_with_api_key', api_key: testApiKey }]);
    expect(agent.status).toBe('connected');
    expect(statuses).toEqual(['connected']);
  });

  it('runs the handler on a mention; reply.send resolves with the echoed message', async () => {
    const { agent, events } = start();
    const sent: Promise<unknown>[] = [];
    agent.onMention((mention, reply) => {
      sent.push(reply.send(`You said: ${mention.content}`));
    });
    await agent.ready;
    const mention = server.mention({ content: '@echo hi' });
    await waitUntil(() => sent.length === 1, 'the handler');
    const message = await sent[0];
    const [frame] = framesOf('send_message');
    expect(frame).toEqual({ type: 'send_message', chat_id: mention.chat_id, content: 'You said: @echo hi', client_id: expect.any(String), mention_id: mention.mention_id, reply_to: mention.message_id });
    expect(message).toEqual(server.messages[0]);
    expect(message).toMatchObject({ content: 'You said: @echo hi', chat_id: mention.chat_id, is_agent: true });
    expect(events.replies).toEqual([{ mention, message, streamed: false }]);
  });

  it('acknowledges a mention once its handler has been called, before it finishes', async () => {
    const { agent } = start();
    const held = deferred();
    let finished = false;
    agent.onMention(async () => {
      await held.promise;
      finished = true;
    });
    await agent.ready;
    const mention = server.mention();
    await waitUntil(() => framesOf('mention_ack').length === 1, 'the ack');
    expect(framesOf('mention_ack')).toEqual([{ type: 'mention_ack', mention_id: mention.mention_id }]);
    expect(finished).toBe(false);
    held.resolve();
    await waitUntil(() => finished, 'the handler to finish');
  });

  it('streams a reply: stream_start, appends, stream_end in order; end resolves with the stored message', async () => {
    const { agent, events } = start();
    let ended: Promise<unknown> | null = null;
    agent.onMention((_mention, reply) => {
      const stream = reply.stream();
      stream.write('Hello, ');
      stream.write('');
      stream.write('world');
      ended = stream.end();
    });
    await agent.ready;
    const mention = server.mention();
    await waitUntil(() => ended !== null, 'the handler');
    const message = await ended;
    const streamFrames = server.received.filter((frame) => frame.type.startsWith('stream_'));
    const streamId = (streamFrames[0] as { stream_id: string }).stream_id;
    expect(streamId).toMatch(/^stream_[0-9a-f]{24}$/);
    expect(streamFrames).toEqual([
      { type: 'stream_start', chat_id: mention.chat_id, stream_id: streamId, mention_id: mention.mention_id, reply_to: mention.message_id },
      { type: 'stream_append', stream_id: streamId, text: 'Hello, ' },
      { type: 'stream_append', stream_id: streamId, text: 'world' },
      { type: 'stream_end', stream_id: streamId },
    ]);
    expect(message).toMatchObject({ content: 'Hello, world', is_agent: true });
    expect(events.replies).toEqual([{ mention, message, streamed: true }]);
  });

  it('sets and clears a status line (cut to 200 characters)', async () => {
    const { agent } = start();
    agent.onMention((_mention, reply) => {
      reply.status('thinking…');
      reply.status('x'.repeat(250));
      reply.status('');
    });
    await agent.ready;
    const mention = server.mention();
    await waitUntil(() => framesOf('agent_status').length === 3, 'three statuses');
    expect(framesOf('agent_status').map((frame) => [frame.chat_id, frame.text])).toEqual([
      [mention.chat_id, 'thinking…'],
      [mention.chat_id, 'x'.repeat(200)],
      [mention.chat_id, ''],
    ]);
  });

  it('handles a repeated mention_id once and acknowledges the repeat again', async () => {
    const { agent } = start();
    const handled: string[] = [];
    agent.onMention((mention) => {
      handled.push(mention.mention_id);
    });
    await agent.ready;
    server.mention({ mention_id: 'mention_repeat' });
    server.mention({ mention_id: 'mention_repeat' });
    server.mention({ mention_id: 'mention_other' });
    await waitUntil(() => framesOf('mention_ack').length === 3, 'three acks');
    expect(handled).toEqual(['mention_repeat', 'mention_other']);
  });

  it('logs a handler that throws or rejects, and keeps handling the next mentions', async () => {
    const { agent, logger, events } = start();
    const handled: string[] = [];
    agent.onMention(async (mention, reply) => {
      handled.push(mention.content);
      if (mention.content === 'throw') throw new Error('boom');
      if (mention.content === 'reject') await Promise.reject(new Error('later boom'));
      await reply.send('still here');
    });
    await agent.ready;
    const thrown = server.mention({ content: 'throw' });
    server.mention({ content: 'reject' });
    server.mention({ content: 'ok' });
    await waitUntil(() => server.messages.length === 3, 'two notices and the third reply');
    await waitUntil(() => logger.error.mock.calls.length === 2, 'two logged errors');
    // Each failed mention is answered with a notice, so nobody waits for a reply that never comes.
    expect(server.messages.map((message) => message.content).sort()).toEqual(
      ['@echo could not answer: Error: boom', '@echo could not answer: Error: later boom', 'still here'].sort(),
    );
    // The notices are the SDK's, not replies of the handler.
    await waitUntil(() => events.replies.length === 1, 'the reply event');
    await settle();
    expect(events.replies.map(({ message }) => message.content)).toEqual(['still here']);
    expect(handled).toEqual(['throw', 'reject', 'ok']);
    expect(logger.error.mock.calls[0]?.[0]).toContain(`The mention handler failed (mention ${thrown.mention_id} in chat ${thrown.chat_id}): boom`);
    expect(logger.error.mock.calls[0]?.[1]).toEqual(new Error('boom'));
    expect(events.errors.map(({ error, mention }) => [error.code, mention?.content])).toEqual([
      ['handler_failed', 'throw'],
      ['handler_failed', 'reject'],
    ]);
    expect(framesOf('mention_ack')).toHaveLength(3);
    expect(agent.status).toBe('connected');
  });

  it('ends an open stream with the notice when its handler fails, and clears a status left up', async () => {
    const { agent } = start();
    agent.onMention(async (mention, reply) => {
      reply.status('thinking…');
      if (mention.content === 'after a reply') {
        await reply.send('answered');
        throw new TypeError('x is not a function');
      }
      reply.stream().write('Half an ans');
      throw new TypeError('x is not a function');
    });
    await agent.ready;
    const streamed = server.mention({ content: 'mid-stream' });
    await waitUntil(() => server.messages.length === 1, 'the ended stream');
    expect(server.messages[0]).toMatchObject({ chat_id: streamed.chat_id, content: 'Half an ans\n\n@echo could not answer: TypeError: x is not a function' });
    expect(framesOf('stream_end')).toHaveLength(1);
    server.mention({ content: 'after a reply' });
    await waitUntil(() => framesOf('agent_status').at(-1)?.text === '', 'the status cleared');
    // A reply was stored already: no notice in the chat, the status line is cleared.
    expect(server.messages.map((message) => message.content)).toEqual(['Half an ans\n\n@echo could not answer: TypeError: x is not a function', 'answered']);
  });

  it('runs handlers for different mentions concurrently', async () => {
    const { agent } = start();
    const held = deferred();
    const order: string[] = [];
    agent.onMention(async (mention, reply) => {
      if (mention.content === 'slow') await held.promise;
      order.push(mention.content);
      await reply.send(mention.content);
    });
    await agent.ready;
    server.mention({ content: 'slow' });
    server.mention({ content: 'fast' });
    await waitUntil(() => server.messages.length === 1, 'the fast reply');
    held.resolve();
    await waitUntil(() => server.messages.length === 2, 'the slow reply');
    expect(order).toEqual(['fast', 'slow']);
  });

  it('keeps mentions that arrive before onMention until a handler is set; a second onMention replaces the first', async () => {
    const { agent } = start();
    await agent.ready;
    server.mention({ content: 'early' });
    await settle();
    expect(framesOf('mention_ack')).toHaveLength(0);
    const first: string[] = [];
    const second: string[] = [];
    agent.onMention((mention) => {
      first.push(mention.content);
    });
    expect(first).toEqual(['early']);
    agent.onMention((mention) => {
      second.push(mention.content);
    });
    server.mention({ content: 'late' });
    await waitUntil(() => second.length === 1, 'the second handler');
    expect(first).toEqual(['early']);
    expect(second).toEqual(['late']);
  });

  it("rejects a reply the server refuses with its error frame's code", async () => {
    const { agent } = start();
    const outcomes: Promise<unknown>[] = [];
    agent.onMention((_mention, reply) => {
      outcomes.push(reply.send('hi'));
      const stream = reply.stream();
      stream.write('text');
      outcomes.push(stream.end());
    });
    await agent.ready;
    server.refusedChats.add('chat_closed');
    server.mention({ chat_id: 'chat_closed' });
    await waitUntil(() => outcomes.length === 2, 'the handler');
    const [sent, streamed] = await Promise.allSettled(outcomes);
    expect(sent).toMatchObject({ status: 'rejected', reason: { name: 'AgentError', code: 'not_invoked', message: 'This agent was not invoked in this chat.' } });
    expect(streamed).toMatchObject({ status: 'rejected', reason: { code: 'not_invoked' } });
    expect(server.messages).toEqual([]);
  });

  it('a refused reply that the handler does not await crashes nothing', async () => {
    const { agent } = start();
    let called = false;
    agent.onMention((_mention, reply) => {
      called = true;
      void reply.send('floating');
      const stream = reply.stream();
      stream.write('floating too');
      void stream.end();
    });
    await agent.ready;
    server.refusedChats.add('chat_closed');
    server.mention({ chat_id: 'chat_closed' });
    await waitUntil(() => called && framesOf('stream_end').length === 1, 'the handler');
    await settle(); // an unhandled rejection would fail this test file
    expect(agent.status).toBe('connected');
  });

  it('refuses an empty or too long reply, a write after end and an empty stream without asking the server', async () => {
    const { agent } = start();
    let reply: Reply | null = null;
    agent.onMention((_mention, given) => {
      reply = given;
    });
    await agent.ready;
    server.mention();
    await waitUntil(() => reply !== null, 'the handler');
    const given = reply as unknown as Reply;
    await expect(given.send('   ')).rejects.toThrow('A reply cannot be empty.');
    await expect(given.send('x'.repeat(10_001))).rejects.toMatchObject({ code: 'invalid_reply', message: 'A reply is at most 10000 characters (this one has 10001).' });
    const empty = given.stream();
    await expect(empty.end()).rejects.toThrow('The stream ended with no text: nothing was stored.');
    expect(() => empty.write('late')).toThrow(AgentError);
    expect(framesOf('send_message')).toEqual([]);
  });

  it('rejects a reply the server never confirms after replyTimeoutMs', async () => {
    const { agent } = start({ replyTimeoutMs: 5_000 });
    let sent: Promise<unknown> | null = null;
    agent.onMention((_mention, reply) => {
      sent = reply.send('hi');
    });
    await agent.ready;
    server.swallowReplies = true;
    server.mention();
    await waitUntil(() => framesOf('send_message').length === 1, 'the send');
    const outcome = expect(sent).rejects.toMatchObject({ code: 'timeout', message: 'The server did not confirm the reply within 5 s.' });
    await vi.advanceTimersByTimeAsync(5_000);
    await outcome;
  });
});
