/**
 * Hosted agents, part 1 (docs/CONTRACTS.md, Hosted agents) on a real server with local OpenAI and
 * Gemini servers: personas answer with their description as the system prompt, streamed into the
 * chat; the key chosen (the invoker's own OpenAI or Gemini key, the server's, none); every provider
 * failure as a short reply with the key's owner told which key failed; token totals on the user
 * record; built-in agents created once and never deletable; no key in the log, a message or an
 * answer. Every case runs on SQLite and PostgreSQL.
 */
import type { AgentView } from '@confab/client/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiErrorMessages, rateLimitedFor } from '../src/agents/ai/errors';
import { maxAttempts } from '../src/agents/ai/retry';
import { startServer } from '../src/index';
import { databaseVariants } from './support/databases';
import { startFakeGemini, type FakeGemini } from './support/fakeGemini';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type Frame, type TestSocket } from './support/wsClient';
import { logCapture } from './support/logCapture';

const variants = await databaseVariants();

const aliceOpenAIKey = 'sk-alice-SECRET-openai-0123456789';
const bobGeminiKey = 'AIza-bob-SECRET-gemini-0123456789';
const daveOpenAIKey = 'sk-dave-SECRET-openai-0123456789';
const daveGeminiKey = 'AIza-dave-SECRET-gemini-0123456789';
const serverOpenAIKey = 'sk-server-SECRET-openai-0123456789';
const allKeys = [aliceOpenAIKey, bobGeminiKey, daveOpenAIKey, daveGeminiKey, serverOpenAIKey];

describe.each(variants)('hosted agents ($name)', (variant) => {
  let openai: FakeOpenAI;
  let gemini: FakeGemini;
  let testServer: TestServer;
  let keyedServer: TestServer;
  const log = logCapture();
  const sockets: TestSocket[] = [];
  /** Every frame and answer body seen, to check no key ever reached a person. */
  const seen: string[] = [];
  let admin: RegisteredUser;
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let dave: RegisteredUser;
  let poet: AgentView;

  const call = async (server: TestServer, method: string, path: string, user: RegisteredUser, body?: unknown) => {
    const response = await rawRequest(server.url, method, path, { token: user.pb.authStore.token, ...(body === undefined ? {} : { body }) });
    seen.push(response.text);
    return response;
  };
  const setKeys = (user: RegisteredUser, keys: Record<string, string>) => user.pb.collection('users').update(user.record.id, keys);

  /** Posts `content` in a new chat of `user` and waits for the agent's stored reply (with the frames before it). */
  async function ask(server: TestServer, user: RegisteredUser, agent: string, content: string, others: RegisteredUser[] = []) {
    const chat = await createChat(user, { name: `Chat with ${agent}`, participants: others.map((other) => other.record.id) });
    const socket = await authenticatedSocket(server.url, user.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    await postMessage(user, chat.id, content);
    const frames: Frame[] = [];
    const final = await socket.next((frame) => {
      frames.push(frame);
      seen.push(JSON.stringify(frame));
      const message = frame['message'] as { is_agent?: boolean; author_username?: string } | undefined;
      return frame.type === 'new_message' && message?.is_agent === true && message.author_username === agent;
    }, 8000);
    return { chat, socket, frames, reply: final['message'] as { content: string }, streamed: final['stream_id'] as string | undefined };
  }

  beforeAll(async () => {
    [openai, gemini] = await Promise.all([startFakeOpenAI(), startFakeGemini()]);
    const ai = { openaiBaseUrl: openai.baseUrl, geminiBaseUrl: gemini.url, openaiModel: 'gpt-test', geminiModel: 'gemini-test', aiTimeoutMs: 1000 };
    testServer = await startTestServer(variant, { logger: true, logStream: log.stream, ...ai });
    keyedServer = await startTestServer(variant, { logger: true, logStream: log.stream, ...ai, openaiApiKey: serverOpenAIKey });
    admin = await registerUser(testServer);
    [alice, bob, dave] = await Promise.all([registerUser(testServer), registerUser(testServer), registerUser(testServer)]);
    await setKeys(alice, { openai_api_key: aliceOpenAIKey });
    await setKeys(bob, { gemini_api_key: bobGeminiKey });
    await setKeys(dave, { openai_api_key: daveOpenAIKey, gemini_api_key: daveGeminiKey });
    const created = await call(testServer, 'POST', '/api/admin/confab-agents', admin, { name: 'Poet', username: 'poet', description: 'You are a poet who answers in rhyme.' });
    expect(created.status).toBe(200);
    poet = (created.body as { agent: AgentView }).agent;
  });

  beforeEach(() => {
    openai.reset();
    gemini.reset();
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await testServer?.close();
    await keyedServer?.close();
    await Promise.all([openai?.close(), gemini?.close()]);
  });

  it('creates the built-in agents once, across a second start on the same database, and refuses to delete them', async () => {
    const builtIns = ['browse', 'data', 'deep', 'drops', 'email'];
    const listed = (await call(testServer, 'GET', '/api/admin/confab-agents', admin)).body as { agents: AgentView[] };
    expect(listed.agents.filter((agent) => builtIns.includes(agent.username)).map((agent) => agent.username).sort()).toEqual(builtIns);
    expect(listed.agents.find((agent) => agent.username === 'email')).toMatchObject({ agent_type: 'confab-agent', description: 'Sends and manages e-mails', site_wide_available: true });
    const again = await startServer({ port: 0, host: '127.0.0.1', dataDir: testServer.dataDir, databaseUrl: testServer.databaseUrl, smtpUrl: '' });
    await again.close();
    const rows = await testServer.probe.rows(`select username from users where username in ('email', 'deep', 'browse', 'data', 'drops')`);
    expect(rows.map((row) => row['username']).sort()).toEqual(builtIns);
    const found = (await call(testServer, 'GET', '/api/agents/search?q=research', alice)).body as { agents: AgentView[] };
    expect(found.agents.map((agent) => agent.username)).toContain('deep');
    const email = listed.agents.find((agent) => agent.username === 'email');
    const refused = await call(testServer, 'DELETE', `/api/admin/confab-agents/${email?.id}`, admin);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'Built-in agents cannot be deleted.' });
  });

  it('answers as a persona, streamed, with its description as the system prompt and the chat as the conversation (the invoker’s own OpenAI key)', async () => {
    openai.enqueue({ kind: 'text', chunks: ['Roses ', 'are ', 'red.'], usage: { prompt: 40, completion: 6 } });
    const { frames, reply, streamed } = await ask(testServer, alice, 'poet', '@poet write me a verse');
    expect(reply.content).toBe('Roses are red.');
    expect(streamed).toBeTruthy();
    expect(frames.filter((frame) => frame.type === 'stream_delta').map((frame) => frame['text'])).toEqual(['Roses ', 'are ', 'red.']);
    expect(frames.some((frame) => frame.type === 'agent_status' && frame['text'] === 'is thinking…')).toBe(true);
    const [request] = openai.requests;
    expect(request?.headers['authorization']).toBe(`Bearer ${aliceOpenAIKey}`);
    expect(request?.body['model']).toBe('gpt-test');
    const messages = request?.body['messages'] as { role: string; content: string }[];
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content.startsWith('You are a poet who answers in rhyme.')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ role: 'user' });
    expect(messages.at(-1)?.content).toContain('@poet write me a verse');
    expect(gemini.requests).toHaveLength(0);
  });

  it('keeps the lines of a persona prompt written on several lines, and answers with all of it', async () => {
    const prompt = 'You are a careful editor.\r\nAnswer in five sentences at most.\n\nQuote\u202E what you change.';
    const created = await call(testServer, 'POST', '/api/admin/confab-agents', admin, { name: 'Editor', username: 'editor_lines', description: `  ${prompt}\n ` });
    expect(created.status).toBe(200);
    const kept = 'You are a careful editor.\nAnswer in five sentences at most.\n\nQuote what you change.';
    expect((created.body as { agent: AgentView }).agent.description).toBe(kept);
    openai.enqueue({ kind: 'text', chunks: ['Done.'] });
    await ask(testServer, alice, 'editor_lines', '@editor_lines tidy this');
    const system = (openai.requests[0]?.body['messages'] as { role: string; content: string }[])[0];
    expect(system?.content.startsWith(kept)).toBe(true);
  });

  it("uses the invoker's own Gemini key, and OpenAI first when a person has both", async () => {
    gemini.enqueue({ kind: 'text', chunks: ['Gemini ', 'rhymes.'] });
    const viaGemini = await ask(testServer, bob, 'poet', '@poet hello');
    expect(viaGemini.reply.content).toBe('Gemini rhymes.');
    expect(gemini.requests[0]?.headers['x-goog-api-key']).toBe(bobGeminiKey);
    expect(gemini.requests[0]?.path).toContain('/models/gemini-test:streamGenerateContent');
    expect(JSON.stringify(gemini.requests[0]?.body['systemInstruction'])).toContain('You are a poet who answers in rhyme.');
    expect(openai.requests).toHaveLength(0);
    const both = await ask(testServer, dave, 'poet', '@poet hello');
    expect(both.reply.content).toBe('Hello from OpenAI.');
    expect(openai.requests[0]?.headers['authorization']).toBe(`Bearer ${daveOpenAIKey}`);
    expect(gemini.requests).toHaveLength(1);
  });

  it('with no key anywhere, answers that it needs one with the My Profile hint; @email says how to use it', async () => {
    const carol = await registerUser(testServer);
    const { reply } = await ask(testServer, carol, 'poet', '@poet hello');
    expect(reply.content).toContain('I need an AI key');
    expect(reply.content).toContain('(/profile)');
    const email = await ask(testServer, carol, 'email', '@email send the minutes');
    expect(email.reply.content).toContain('Whom should I write to?');
    expect(email.reply.content).toContain('(/profile)');
    expect(openai.requests).toHaveLength(0);
    expect(gemini.requests).toHaveLength(0);
  });

  it.each([
    ['openai', 401, 'auth', /^Your OpenAI key was refused \(401\)/],
    ['openai', 429, 'rate_limit', /^Your OpenAI key hit OpenAI's rate limit/],
    ['openai', 500, 'server', /^OpenAI failed with 500 while using your key/],
    ['openai', 0, 'timeout', /^OpenAI did not answer within 1 s \(with your key\)/],
    ['gemini', 400, 'auth', /^Your Gemini key was refused \(400\)/],
    ['gemini', 429, 'rate_limit', /^Your Gemini key hit Gemini's rate limit/],
    ['gemini', 500, 'server', /^Gemini failed with 500 while using your key/],
    ['gemini', 0, 'timeout', /^Gemini did not answer within 1 s/],
  ] as const)('a %s %i becomes a short reply for everyone and a notice naming the key for its owner only', async (provider, status, kind, owner) => {
    const script = status === 0 ? ({ kind: 'slow', delayMs: 3000 } as const) : ({ kind: 'error', status } as const);
    // Gemini's 500 is tried again (OpenAI's fake says x-should-retry: false): it fails every time.
    const scripts = Array.from({ length: maxAttempts }, () => script);
    if (provider === 'openai') openai.enqueue(...scripts);
    else gemini.enqueue(...scripts);
    const invoker = provider === 'openai' ? alice : bob;
    const other = provider === 'openai' ? bob : alice;
    const { chat, socket, reply } = await ask(testServer, invoker, 'poet', '@poet hello', [other]);
    // Gemini's 429 asks for 34.4 s (RetryInfo), past what is sat out: the reply says when to ask again.
    expect(reply.content).toBe(provider === 'gemini' && status === 429 ? rateLimitedFor(34_400) : aiErrorMessages[kind]);
    const notice = await socket.next((frame) => frame.type === 'agent_notice', 3000);
    seen.push(JSON.stringify(notice));
    expect(notice).toMatchObject({ chat_id: chat.id, agent_username: 'poet', reason: 'not_available' });
    expect(String(notice['text'])).toMatch(owner);
    const otherSocket = await authenticatedSocket(testServer.url, other.pb.authStore.token);
    sockets.push(otherSocket);
    await otherSocket.join(chat.id);
    await expect(otherSocket.next((frame) => frame.type === 'agent_notice', 300)).rejects.toThrow();
  });

  it("uses the server's key for a person without one; its failure names the server's key in the log, not to the person", async () => {
    const erin = await registerUser(keyedServer);
    const answered = await ask(keyedServer, erin, 'email', '@email hello');
    expect(answered.reply.content).toBe('Hello from OpenAI.');
    expect(openai.requests[0]?.headers['authorization']).toBe(`Bearer ${serverOpenAIKey}`);
    expect(String((openai.requests[0]?.body['messages'] as { content: string }[])[0]?.content)).toContain('Sends and manages e-mails');
    openai.enqueue({ kind: 'error', status: 401 });
    const failed = await ask(keyedServer, erin, 'email', '@email again');
    expect(failed.reply.content).toBe(aiErrorMessages.auth);
    await expect(failed.socket.next((frame) => frame.type === 'agent_notice', 300)).rejects.toThrow();
    expect(log.text()).toContain("The server's OpenAI key was refused (401)");
  });

  it('totals token usage on the owner’s own record only, and never shows a key in the log, a message or an answer', async () => {
    openai.enqueue({ kind: 'text', chunks: ['Counted.'], usage: { prompt: 100, completion: 23 } });
    const before = (await alice.pb.collection('users').getOne(alice.record.id))['ai_tokens_used'] as number;
    await ask(testServer, alice, 'poet', '@poet count me');
    const after = await alice.pb.collection('users').getOne(alice.record.id);
    expect(after['ai_tokens_used']).toBe(before + 123);
    expect(before).toBeGreaterThanOrEqual(46);
    const seenByBob = await call(testServer, 'GET', `/api/collections/users/records/${alice.record.id}`, bob);
    expect((seenByBob.body as Record<string, unknown>)['ai_tokens_used']).toBeUndefined();
    const usage = await testServer.probe.rows(`select sum(input_tokens + output_tokens) as total from ai_usage where "user" = $1`, [alice.record.id]);
    expect(Number(usage[0]?.['total'])).toBe(after['ai_tokens_used']);
    const chats = await testServer.probe.rows('select id from chats');
    for (const { id } of chats) {
      const listed = await call(testServer, 'GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat="${String(id)}"`)}&perPage=200`, admin);
      seen.push(listed.text);
    }
    const everything = [log.text(), ...seen, JSON.stringify(await testServer.probe.rows('select * from ai_usage'))].join('\n');
    for (const key of allKeys) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice(3, 20));
    }
    expect(everything).not.toContain('Incorrect API key provided');
    expect(everything).not.toContain('API key not valid');
  });

  it('routes every confab agent without a handler of its own to the persona (an admin-made one answers at once)', async () => {
    expect(poet.agent_type).toBe('confab-agent');
    openai.enqueue({ kind: 'text', chunks: ['Quick.'] });
    const { reply } = await ask(testServer, alice, 'poet', '@poet quick');
    expect(reply.content).toBe('Quick.');
  });
});
