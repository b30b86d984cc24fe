/**
 * An AI provider that misbehaves (docs/OPERATIONS.md, Fault matrix, AI providers), on a real
 * server whose persona agent calls local OpenAI and Gemini stand-ins speaking the real SSE
 * protocols: a provider that never answers or stalls mid-stream, a 500, a 429 with Retry-After
 * (short: waited and tried again; long: told when to ask again at once), a stream that is not
 * JSON, a socket destroyed mid-stream. For each: what the person sees (realtime and the record
 * API), the partial reply kept and marked cut off, the attempts counted at the stand-in, no
 * provider body anywhere a person or the log can read, and the next mention answered normally.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiErrorMessages, rateLimitedFor } from '../src/agents/ai/errors';
import { maxAttempts } from '../src/agents/ai/retry';
import { databaseVariants } from './support/databases';
import { startFakeGemini, type FakeGemini } from './support/fakeGemini';
import { startFakeOpenAI, type FakeOpenAI, type OpenAIScript } from './support/fakeOpenAI';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { logCapture } from './support/logCapture';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type Frame, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

const aliceKey = 'sk-alice-SECRET-openai-0123456789';
const bobKey = 'AIza-bob-SECRET-gemini-0123456789';
const idleMs = 700;
/** What the stand-ins say that must never reach a person or the log. */
const providerWords = ['Rate limit reached for requests', 'The server had an error while processing', 'LEAKED', '<html>', 'upstream', 'Resource has been exhausted', 'SECRET'];

/** No stand-in's error body, broken chunk or key in what a person or the log can read. */
function expectNoProviderWords(text: string): void {
  for (const word of [...providerWords, aliceKey.slice(3, 20), bobKey.slice(5, 20)]) expect(text).not.toContain(word);
}

interface AgentMessage {
  content: string;
  cut_off?: boolean;
}

describe.each(variants)('an AI provider that misbehaves ($name)', (variant) => {
  let openai: FakeOpenAI;
  let gemini: FakeGemini;
  let testServer: TestServer;
  const log = logCapture();
  const sockets: TestSocket[] = [];
  let alice: RegisteredUser;
  let bob: RegisteredUser;

  /**
   * `user` mentions @poet in a new chat; answers once the agent's message with `last` content
   * arrived: every agent message on the socket, the stream frames, and the record API's view.
   */
  async function ask(user: RegisteredUser, last: string) {
    const chat = await createChat(user, { name: 'Poetry' });
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    socket.received.splice(0);
    const started = Date.now();
    await postMessage(user, chat.id, '@poet a verse, please');
    const fromPoet = (frame: Frame) => frame.type === 'new_message' && (frame['message'] as { author_username?: string }).author_username === 'poet';
    const matched = await socket.next((frame) => fromPoet(frame) && (frame['message'] as AgentMessage).content === last, 8000);
    const elapsedMs = Date.now() - started;
    const before = socket.received.splice(0);
    // Anything after it (a second reply that should not exist) has a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const frames = [...before, matched, ...socket.received.splice(0)];
    const listed = await rawRequest(testServer.url, 'GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat="${chat.id}"`)}&sort=seq`, { token: user.pb.authStore.token });
    expectNoProviderWords([...frames.map((frame) => JSON.stringify(frame)), listed.text].join('\n'));
    const stored = (listed.body as { items: (AgentMessage & { author: string })[] }).items.filter((item) => item.author !== user.record.id);
    return { elapsedMs, frames, stored, agentFrames: frames.filter(fromPoet).map((frame) => frame['message'] as AgentMessage) };
  }

  /** After a fault, the next mention is answered normally, whole and not marked. */
  async function answersNormally(user: RegisteredUser) {
    const { stored } = await ask(user, user === alice ? 'Hello from OpenAI.' : 'Hello from Gemini.');
    expect(stored).toEqual([expect.objectContaining({ content: user === alice ? 'Hello from OpenAI.' : 'Hello from Gemini.' })]);
    expect(stored[0]?.cut_off).toBeUndefined();
  }

  const failing = (status: number, headers: Record<string, string> = {}): OpenAIScript => ({ kind: 'error', status, headers });

  beforeAll(async () => {
    [openai, gemini] = await Promise.all([startFakeOpenAI(), startFakeGemini()]);
    testServer = await startTestServer(variant, {
      logger: true,
      logStream: log.stream,
      openaiBaseUrl: openai.baseUrl,
      geminiBaseUrl: gemini.url,
      openaiModel: 'gpt-test',
      geminiModel: 'gemini-test',
      aiTimeoutMs: 5000,
      aiIdleTimeoutMs: idleMs,
    });
    const admin = await registerUser(testServer);
    [alice, bob] = await Promise.all([registerUser(testServer), registerUser(testServer)]);
    await alice.pb.collection('users').update(alice.record.id, { openai_api_key: aliceKey });
    await bob.pb.collection('users').update(bob.record.id, { gemini_api_key: bobKey });
    const created = await rawRequest(testServer.url, 'POST', '/api/admin/confab-agents', {
      token: admin.pb.authStore.token,
      body: { name: 'Poet', username: 'poet', description: 'You are a poet.' },
    });
    expect(created.status).toBe(200);
  });

  beforeEach(() => {
    openai.reset();
    gemini.reset();
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    expectNoProviderWords(log.text());
  });

  afterAll(async () => {
    await testServer?.close();
    await Promise.all([openai?.close(), gemini?.close()]);
  });

  it('a stream that stalls mid-way: the text so far is kept, marked cut off, with the timeout notice; not tried again', async () => {
    openai.enqueue({ kind: 'broken', chunks: ['Roses ', 'are '], then: 'stall' });
    const { elapsedMs, frames, stored, agentFrames } = await ask(alice, aiErrorMessages.timeout);
    expect(elapsedMs).toBeGreaterThanOrEqual(idleMs);
    // Realtime: the reply grew, then was stored marked cut off, then the notice.
    expect(frames.filter((frame) => frame.type === 'stream_delta').map((frame) => frame['text'])).toEqual(['Roses ', 'are ']);
    expect(agentFrames).toEqual([expect.objectContaining({ content: 'Roses are', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.timeout })]);
    expect(agentFrames[1]?.cut_off).toBeUndefined();
    // The record API: the same two messages, the partial one marked.
    expect(stored).toEqual([expect.objectContaining({ content: 'Roses are', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.timeout })]);
    expect(openai.requests).toHaveLength(1);
    expect(log.text()).toContain(`OpenAI sent nothing for ${Math.round(idleMs / 1000)} s (with your key).`);
    await answersNormally(alice);
  });

  it('a provider that never answers: the timeout notice after the idle time, nothing cut off, not tried again', async () => {
    openai.enqueue({ kind: 'slow', delayMs: 4000 });
    const { elapsedMs, stored } = await ask(alice, aiErrorMessages.timeout);
    expect(elapsedMs).toBeGreaterThanOrEqual(idleMs);
    expect(elapsedMs).toBeLessThan(3000);
    expect(stored).toEqual([expect.objectContaining({ content: aiErrorMessages.timeout })]);
    expect(openai.requests).toHaveLength(1);
    await answersNormally(alice);
  });

  it(`a 500 every time: tried ${maxAttempts} times in all, then the server notice; the log has the status, not the body`, async () => {
    openai.enqueue(...Array.from({ length: maxAttempts + 1 }, () => failing(500)));
    const { stored } = await ask(alice, aiErrorMessages.server);
    expect(stored).toEqual([expect.objectContaining({ content: aiErrorMessages.server })]);
    expect(openai.requests).toHaveLength(maxAttempts);
    const retried = log.lines().filter((line) => line['msg'] === 'AI provider call retried');
    expect(retried.slice(-(maxAttempts - 1))).toEqual(Array.from({ length: maxAttempts - 1 }, () => expect.objectContaining({ provider: 'openai', status: 500 })));
    expect(log.lines().filter((line) => line['msg'] === 'AI provider call failed').at(-1)).toMatchObject({ provider: 'openai', status: 500 });
    openai.reset();
    await answersNormally(alice);
  });

  it('a 500 once: tried again after a short backoff, and the answer arrives once', async () => {
    openai.enqueue(failing(500), { kind: 'text', chunks: ['Second ', 'time.'] });
    const { agentFrames, stored } = await ask(alice, 'Second time.');
    expect(agentFrames).toEqual([expect.objectContaining({ content: 'Second time.' })]);
    expect(stored).toHaveLength(1);
    expect(openai.requests).toHaveLength(2);
  });

  it('a 429 with Retry-After: 1: waits at least a second, tries again, and the answer arrives once', async () => {
    openai.enqueue(failing(429, { 'retry-after': '1' }), { kind: 'text', chunks: ['Patience ', 'pays.'] });
    const { agentFrames, stored } = await ask(alice, 'Patience pays.');
    expect(openai.requests).toHaveLength(2);
    expect((openai.requests[1]?.at ?? 0) - (openai.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(agentFrames).toEqual([expect.objectContaining({ content: 'Patience pays.' })]);
    expect(stored).toEqual([expect.objectContaining({ content: 'Patience pays.' })]);
  });

  it('a 429 whose Retry-After (an HTTP date) is past the cap: says when to ask again at once, without waiting', async () => {
    const inTwoHours = new Date(Date.now() + 2 * 60 * 60 * 1000).toUTCString();
    openai.enqueue(failing(429, { 'retry-after': inTwoHours }));
    const { elapsedMs, stored } = await ask(alice, rateLimitedFor(2 * 60 * 60 * 1000));
    expect(rateLimitedFor(2 * 60 * 60 * 1000)).toBe('The AI provider is limiting requests right now; please try again in about 120 minutes.');
    expect(elapsedMs).toBeLessThan(3000);
    expect(stored).toEqual([expect.objectContaining({ content: rateLimitedFor(2 * 60 * 60 * 1000) })]);
    expect(openai.requests).toHaveLength(1);
    await answersNormally(alice);
  });

  it('a chunk that is not JSON ends the stream as an error: the text so far kept and marked, none of the broken chunk', async () => {
    openai.enqueue({ kind: 'broken', chunks: ['Roses ', 'are '], then: 'malformed' });
    const { stored } = await ask(alice, aiErrorMessages.server);
    expect(stored).toEqual([expect.objectContaining({ content: 'Roses are', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.server })]);
    expect(openai.requests).toHaveLength(1);
    expect(log.text()).toContain('OpenAI sent a stream that could not be read (with your key).');
    await answersNormally(alice);
  });

  it('a connection cut mid-stream: the text so far kept and marked cut off, not tried again', async () => {
    openai.enqueue({ kind: 'broken', chunks: ['Roses ', 'are ', 'red'], then: 'cut' });
    const { stored } = await ask(alice, aiErrorMessages.server);
    expect(stored).toEqual([expect.objectContaining({ content: 'Roses are red', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.server })]);
    expect(openai.requests).toHaveLength(1);
    expect(log.text()).toContain("OpenAI's answer broke off mid-stream (with your key).");
    await answersNormally(alice);
  });

  it('Gemini: a connection cut mid-stream is kept and marked the same way', async () => {
    gemini.enqueue({ kind: 'broken', chunks: ['Violets ', 'are '], then: 'cut' });
    const { stored } = await ask(bob, aiErrorMessages.server);
    expect(stored).toEqual([expect.objectContaining({ content: 'Violets are', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.server })]);
    expect(gemini.requests).toHaveLength(1);
    await answersNormally(bob);
  });

  it('Gemini: a chunk that is not JSON ends the stream as an error, the text so far kept and marked', async () => {
    gemini.enqueue({ kind: 'broken', chunks: ['Violets ', 'are '], then: 'malformed' });
    const { stored } = await ask(bob, aiErrorMessages.server);
    expect(stored).toEqual([expect.objectContaining({ content: 'Violets are', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.server })]);
    expect(gemini.requests).toHaveLength(1);
    await answersNormally(bob);
  });

  it('Gemini: a stalled stream times out with the text so far kept', async () => {
    gemini.enqueue({ kind: 'broken', chunks: ['Violets '], then: 'stall' });
    const { stored } = await ask(bob, aiErrorMessages.timeout);
    expect(stored).toEqual([expect.objectContaining({ content: 'Violets', cut_off: true }), expect.objectContaining({ content: aiErrorMessages.timeout })]);
    expect(gemini.requests).toHaveLength(1);
  });
});
