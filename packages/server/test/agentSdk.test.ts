import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent, type AgentConnection, type AgentEventMap, type Mention, type Reply, type WireMessage } from '@confab/client/agent';
import type { AgentKeyAnswer } from '@confab/client/protocol';
import { allowDeveloperAgents, createAgent } from './support/agents';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

/*
 * The Agent SDK (`@confab/client/agent`) against the real server: the SDK's own tests use a fake
 * (packages/client/src/agent/fakeAgentServer.ts); this holds both to the contract. The SDK is the
 * same on every database, so SQLite is enough here.
 */

let testServer: TestServer;
let owner: RegisteredUser;
const agents: AgentConnection[] = [];

beforeAll(async () => {
  testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { logger: false });
  owner = await registerUser(testServer);
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

afterAll(async () => {
  await testServer?.close();
});

async function waitUntil(condition: () => boolean, description: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
    await new Promise<void>((resolve) => setTimeout(resolve, 10));
  }
}

function connect(apiKey: string) {
  const logged: unknown[][] = [];
  const errors: AgentEventMap['error'][] = [];
  const agent = connectAgent({ url: testServer.url, apiKey, WebSocket, logger: { error: (...values: unknown[]) => logged.push(values) } });
  agent.on('error', (event) => errors.push(event));
  agents.push(agent);
  return { agent, logged, errors };
}

/** A chat of the owner where developer agents may answer. */
async function chatWithAgents(): Promise<string> {
  const chat = await createChat(owner, { name: `SDK ${Math.random().toString(36).slice(2, 8)}` });
  await allowDeveloperAgents(owner, chat.id);
  return chat.id;
}

async function contentsOf(chatId: string): Promise<string[]> {
  const page = await owner.pb.collection('messages').getFullList({ filter: `chat = "${chatId}"`, sort: 'seq' });
  return page.map((record) => String(record['content'] ?? record['encryptedContent'] ?? ''));
}

describe('the Agent SDK on the real server', () => {
  let created: AgentKeyAnswer;

  beforeAll(async () => {
    created = await createAgent(testServer.url, owner, { name: `Sdk Echo ${Math.random().toString(36).slice(2, 6)}` });
  });

  it('authenticates with the key: ready resolves with the agent and its dev room', async () => {
    const { agent } = connect(created.api_key);
    const identity = await agent.ready;
    expect(identity).toMatchObject({ id: created.agent.id, username: created.agent.username, name: created.agent.name });
    expect(identity.dev_room_id).not.toBe('');
    expect(agent.status).toBe('connected');
  });

  it('answers a mention with a status and a whole reply, stored in the chat', async () => {
    const { agent, logged } = connect(created.api_key);
    const mentions: Mention[] = [];
    const replies: Promise<WireMessage>[] = [];
    agent.onMention((mention, reply: Reply) => {
      mentions.push(mention);
      reply.status('thinking…');
      replies.push(reply.send(`You said: ${mention.content}`));
    });
    await agent.ready;
    const chatId = await chatWithAgents();
    await postMessage(owner, chatId, `@${created.agent.username} hello`);
    await waitUntil(() => replies.length === 1, 'the handler');
    const message = await replies[0];
    expect(mentions[0]).toMatchObject({ chat_id: chatId, content: `@${created.agent.username} hello`, author_username: owner.username, hop: 1 });
    expect(message).toMatchObject({ chat_id: chatId, content: `You said: @${created.agent.username} hello`, is_agent: true, author_id: created.agent.id });
    expect(await contentsOf(chatId)).toEqual([`@${created.agent.username} hello`, `You said: @${created.agent.username} hello`]);
    expect(logged).toEqual([]);
  });

  it("edits its own reply (people see it '(edited)'), and is refused someone else's message", async () => {
    const { agent, logged } = connect(created.api_key);
    const outcomes: Promise<unknown>[] = [];
    let personMessageId = '';
    agent.onMention(async (_mention, reply: Reply) => {
      const first = await reply.send('Working on it…');
      outcomes.push(reply.edit(first, 'Done: 42'));
      outcomes.push(reply.edit(personMessageId, 'hijacked').catch((error: unknown) => error));
      outcomes.push(reply.edit(first, '   ').catch((error: unknown) => error));
    });
    await agent.ready;
    const chatId = await chatWithAgents();
    const asked = await postMessage(owner, chatId, `@${created.agent.username} what is the answer?`);
    personMessageId = asked.id;
    await waitUntil(() => outcomes.length === 3, 'the handler');
    const [edited, refused, empty] = await Promise.all(outcomes);
    expect(edited).toMatchObject({ chat_id: chatId, content: 'Done: 42', author_id: created.agent.id });
    expect((edited as WireMessage).edited_at).toMatch(/^\d{4}-\d\d-\d\d /);
    expect(refused).toMatchObject({ code: 'not_allowed', message: 'no message you may edit has this id' });
    expect(empty).toMatchObject({ code: 'invalid_reply' });
    expect(await contentsOf(chatId)).toEqual([`@${created.agent.username} what is the answer?`, 'Done: 42']);
    const stored = await owner.pb.collection('messages').getFullList({ filter: `chat = "${chatId}"`, sort: 'seq' });
    expect(stored[1]?.['edited_at']).not.toBe('');
    expect(logged).toEqual([]);
  });

  it("reacts to the mention's message (people see the agent's chip), refusing what is not one emoji before sending", async () => {
    const { agent, logged } = connect(created.api_key);
    const outcomes: Promise<unknown>[] = [];
    agent.onMention(async (_mention, reply: Reply) => {
      outcomes.push(reply.react('👀'));
      outcomes.push(reply.react('eyes').catch((error: unknown) => error));
    });
    await agent.ready;
    const chatId = await chatWithAgents();
    const asked = await postMessage(owner, chatId, `@${created.agent.username} look at this`);
    await waitUntil(() => outcomes.length === 2, 'the handler');
    const [reacted, refused] = await Promise.all(outcomes);
    expect(reacted).toEqual([{ emoji: '👀', count: 1, users: [{ id: created.agent.id, username: created.agent.username, name: created.agent.name }] }]);
    expect(refused).toMatchObject({ code: 'invalid_reply', message: 'A reaction must be exactly one emoji.' });
    const stored = await owner.pb.collection('messages').getOne(asked.id);
    expect(stored['reactions']).toMatchObject([{ emoji: '👀', count: 1 }]);
    expect(logged).toEqual([]);
  });

  it("gets a mention's context without the messages deleted before it", async () => {
    const { agent } = connect(created.api_key);
    const mentions: Mention[] = [];
    agent.onMention((mention) => {
      mentions.push(mention);
    });
    await agent.ready;
    const chatId = await chatWithAgents();
    await postMessage(owner, chatId, 'the launch is on Friday');
    const secret = await postMessage(owner, chatId, 'the password is hunter2');
    expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/messages/records/${secret.id}`, { token: owner.pb.authStore.token })).status).toBe(204);
    await postMessage(owner, chatId, `@${created.agent.username} what did I say?`);
    await waitUntil(() => mentions.length === 1, 'the mention');
    expect(mentions[0]!.context.map((message) => message.content)).toEqual(['the launch is on Friday']);
  });

  it('streams a reply written at once (start, appends, end): end resolves with the stored message', async () => {
    const { agent, logged } = connect(created.api_key);
    let ended: Promise<WireMessage> | null = null;
    agent.onMention((_mention, reply: Reply) => {
      const stream = reply.stream();
      stream.write('streamed ');
      stream.write('reply');
      ended = stream.end();
    });
    await agent.ready;
    const chatId = await chatWithAgents();
    await postMessage(owner, chatId, `@${created.agent.username} stream please`);
    await waitUntil(() => ended !== null, 'the handler');
    await expect(ended).resolves.toMatchObject({ chat_id: chatId, content: 'streamed reply', is_agent: true });
    expect(await contentsOf(chatId)).toEqual([`@${created.agent.username} stream please`, 'streamed reply']);
    expect(logged).toEqual([]);
  });

  it('gets a mention made while it was offline when it connects, and only once', async () => {
    const chatId = await chatWithAgents();
    await postMessage(owner, chatId, `@${created.agent.username} are you there?`);
    const handled: string[] = [];
    const first = connect(created.api_key);
    first.agent.onMention(async (mention, reply) => {
      handled.push(mention.content);
      await reply.send('back now');
    });
    await waitUntil(() => handled.length === 1, 'the queued mention');
    await waitUntil(() => first.agent.status === 'connected', 'connected');
    await first.agent.close();
    const second = connect(created.api_key);
    second.agent.onMention((mention) => {
      handled.push(mention.content);
    });
    await second.agent.ready;
    await new Promise<void>((resolve) => setTimeout(resolve, 300));
    expect(handled).toEqual([`@${created.agent.username} are you there?`]);
  });

  it('rejects ready with a clear message for a wrong key, and does not retry', async () => {
    const { agent, errors } = connect(`cfk_${'A'.repeat(43)}`);
    await expect(agent.ready).rejects.toThrow(/^Invalid API key: the server refused it/);
    expect(agent.status).toBe('closed');
    expect(errors.map(({ error }) => error.code)).toEqual(['invalid_api_key']);
  });

  it('stops when the key is rotated', async () => {
    const mine = await createAgent(testServer.url, owner, { name: `Sdk Rotate ${Math.random().toString(36).slice(2, 6)}` });
    const { agent, errors } = connect(mine.api_key);
    await agent.ready;
    const rotated = await rawRequest(testServer.url, 'POST', `/api/agents/${mine.agent.id}/rotate-key`, { token: owner.pb.authStore.token });
    expect(rotated.status).toBe(200);
    await waitUntil(() => agent.status === 'closed', 'the agent to stop');
    expect(errors.map(({ error }) => error.code)).toEqual(['invalid_api_key']);
    const fresh = connect((rotated.body as AgentKeyAnswer).api_key);
    await expect(fresh.agent.ready).resolves.toMatchObject({ id: mine.agent.id });
  });
});
