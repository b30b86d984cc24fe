import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAgent, type AgentConnection, type Mention, type WireMessage } from '@confab/client/agent';
import { allowDeveloperAgents, createAgent } from './support/agents';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from './support/wsClient';

/**
 * Replies (docs/CONTRACTS.md, Replies) on the real server and both databases: reply_to on both
 * ways in, the quote and the count on the wire and in records, the thread filter, who may name
 * what, unread mentions, catch-up, and a person's reply to an agent reaching that agent.
 */
const variants = await databaseVariants();

describe.each(variants)('replies ($name)', (variant) => {
  let testServer: TestServer;
  const sockets: TestSocket[] = [];
  const agents: AgentConnection[] = [];

  beforeAll(async () => {
    testServer = await startTestServer(variant);
  });

  afterAll(async () => {
    await Promise.all([...sockets.map((socket) => socket.close()), ...agents.map((agent) => agent.close())]);
    await testServer?.close();
  });

  const socketOf = async (user: RegisteredUser) => {
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    sockets.push(socket);
    return socket;
  };
  const call = (user: RegisteredUser | undefined, method: string, path: string, body?: unknown) =>
    rawRequest(testServer.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });
  const reply = (user: RegisteredUser, chatId: string, content: string, replyTo: unknown) =>
    call(user, 'POST', '/api/collections/messages/records', { chat: chatId, content, reply_to: replyTo });
  const threadOf = (user: RegisteredUser, chatId: string, originalId: string) =>
    user.pb.collection('messages').getFullList({ filter: user.pb.filter('chat = {:chatId} && reply_to = {:originalId}', { chatId, originalId }), sort: 'seq' });
  const mentionCount = async (user: RegisteredUser, chatId: string) => (await user.pb.collection('chats').getOne(chatId))['mention_count'];

  async function team() {
    const ann = await registerUser(testServer, { name: 'Ann' });
    const bob = await registerUser(testServer, { name: 'Bob' });
    const eve = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await socketOf(ann);
    await annSocket.join(chat.id);
    return { ann, bob, eve, chat, annSocket };
  }

  it("stores a reply with a quote of its original, and the original's count follows live", async () => {
    const { ann, bob, chat, annSocket } = await team();
    const original = await postMessage(ann, chat.id, '**Lunch** at 12?\nor later');
    await annSocket.nextMessage(chat.id);
    const bobSocket = await socketOf(bob);
    await bobSocket.join(chat.id);

    bobSocket.send({ type: 'send_message', chat_id: chat.id, content: 'Yes please', client_id: 'c1', reply_to: original.id });
    const stored = await annSocket.nextMessage(chat.id);
    expect(stored).toMatchObject({
      content: 'Yes please',
      reply_to: original.id,
      reply_to_preview: { message_id: original.id, author_name: 'Ann', excerpt: 'Lunch at 12?' },
    });
    expect(stored.reply_count).toBeUndefined();
    const updated = messageOf(await annSocket.nextOfType('message_updated'));
    expect(updated).toMatchObject({ message_id: original.id, reply_count: 1 });
    // Bob's reply counts among Ann's unread mentions (noted after the send is answered).
    await eventuallyAsync(async () => (await mentionCount(ann, chat.id)) === 1);
    expect(await mentionCount(bob, chat.id)).toBe(0);

    // A reply to the reply joins the original's thread (threads are one level deep).
    const second = await reply(ann, chat.id, 'Great', stored.message_id);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ reply_to: original.id, reply_to_preview: { message_id: original.id }, reply_count: 0 });

    const thread = await threadOf(ann, chat.id, original.id);
    expect(thread.map((record) => record['content'])).toEqual(['Yes please', 'Great']);
    const record = await ann.pb.collection('messages').getOne(original.id);
    expect(record).toMatchObject({ reply_to: '', reply_count: 2 });
  });

  it('refuses a reply_to that is not a message of the same chat, and tells strangers nothing', async () => {
    const { ann, eve, chat, annSocket } = await team();
    const elsewhere = await createChat(eve);
    const secret = await postMessage(eve, elsewhere.id, 'payroll');

    for (const replyTo of [secret.id, 'nosuchmessage00', 42, 'x'.repeat(200)]) {
      const refused = await reply(ann, chat.id, 'hello', replyTo);
      expect(refused.status, String(replyTo)).toBe(400);
      expect(refused.body).toMatchObject({ message: 'Failed to create record.', data: { reply_to: { code: 'validation_invalid_value', message: 'Must be a message of this chat.' } } });
    }
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: 'hello', client_id: 'c2', reply_to: secret.id });
    const error = await annSocket.nextOfType('error');
    expect(error).toMatchObject({ code: 'invalid_message', message: 'reply_to: Must be a message of this chat.', ref: 'c2' });
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: 'hello', client_id: 'c3', reply_to: 7 });
    expect(await annSocket.nextOfType('error')).toMatchObject({ code: 'invalid_frame', ref: 'c3' });

    // Eve, outside Ann's chat: refused for the chat before reply_to is looked at, and her filter finds nothing.
    const own = await postMessage(ann, chat.id, 'ours');
    const outsider = await reply(eve, chat.id, 'hi', own.id);
    expect(outsider.status).toBe(400);
    expect((outsider.body as { data: object }).data).toEqual({});
    expect(await threadOf(eve, chat.id, own.id)).toEqual([]);
    expect((await threadOf(ann, elsewhere.id, secret.id)).length).toBe(0);
    expect((await eve.pb.collection('messages').getOne(secret.id))['reply_count']).toBe(0);
  });

  it('keeps replies when the original is deleted ("original deleted"), and refuses new ones to it', async () => {
    const { ann, bob, chat } = await team();
    const original = await postMessage(bob, chat.id, 'a mistake');
    const answer = await reply(ann, chat.id, 'what?', original.id);
    expect((await call(bob, 'DELETE', `/api/collections/messages/records/${original.id}`)).status).toBe(204);
    const kept = await ann.pb.collection('messages').getOne((answer.body as { id: string }).id);
    expect(kept).toMatchObject({ content: 'what?', reply_to: original.id, reply_to_preview: { message_id: original.id, author_name: 'Bob', excerpt: '', deleted: true } });
    expect((await reply(ann, chat.id, 'again', original.id)).status).toBe(400);
  });

  it('lets a client that was away catch up on reply counts by updated, and replays quotes on join', async () => {
    const { ann, bob, chat } = await team();
    const original = await postMessage(ann, chat.id, 'Plan for Monday');
    const since = String(original['updated']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await reply(bob, chat.id, 'Sounds good', original.id);
    const changed = await ann.pb.collection('messages').getFullList({ filter: ann.pb.filter('chat = {:chatId} && updated > {:since}', { chatId: chat.id, since }), sort: 'seq' });
    expect(changed.find((record) => record.id === original.id)).toMatchObject({ reply_count: 1 });
    const late = await socketOf(bob);
    const { replayed } = await late.join(chat.id, 0);
    expect(replayed.map((message) => [message.reply_count, message.reply_to_preview?.excerpt])).toEqual([
      [1, undefined],
      [undefined, 'Plan for Monday'],
    ]);
  });

  it("routes a person's reply to an agent's message to that agent with the thread, and the agent answers in it", async () => {
    const owner = await registerUser(testServer, { name: 'Owner' });
    const created = await createAgent(testServer.url, owner, { name: `Thread Bot ${Math.random().toString(36).slice(2, 6)}` });
    const chat = await createChat(owner);
    await allowDeveloperAgents(owner, chat.id);
    const agent = connectAgent({ url: testServer.url, apiKey: created.api_key, WebSocket });
    agents.push(agent);
    const mentions: Mention[] = [];
    const answers: Promise<WireMessage>[] = [];
    agent.onMention((mention, answer) => {
      mentions.push(mention);
      answers.push(answer.send(`answer ${mentions.length}`));
    });
    await agent.ready;
    const asked = await postMessage(owner, chat.id, `@${created.agent.username} start`);
    await eventually(() => answers.length === 1);
    const first = await answers[0]!;
    expect(first).toMatchObject({ reply_to: asked.id, reply_to_preview: { message_id: asked.id } });

    // No @name: the reply to the agent's message is routed to it, with the thread as context.
    const followUp = await reply(owner, chat.id, 'and then?', first.message_id);
    expect(followUp.status).toBe(200);
    await eventually(() => answers.length === 2);
    expect(mentions[1]).toMatchObject({ reason: 'mention', content: 'and then?', reply_to: asked.id, hop: 1 });
    expect(mentions[1]!.thread?.map((message) => message.content)).toEqual([`@${created.agent.username} start`, 'answer 1', 'and then?']);
    expect(await answers[1]!).toMatchObject({ reply_to: asked.id });
    expect((await threadOf(owner, chat.id, asked.id)).map((record) => record['content'])).toEqual(['answer 1', 'and then?', 'answer 2']);

    // Under the same rules as an @mention: with developer agents off, it is not routed and the sender is told.
    await allowDeveloperAgents(owner, chat.id, false);
    const ownerSocket = await socketOf(owner);
    await reply(owner, chat.id, 'still there?', first.message_id);
    expect(await ownerSocket.nextOfType('agent_notice')).toMatchObject({ reason: 'developer_agents_off', agent_username: created.agent.username });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mentions).toHaveLength(2);
  });
});

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function eventuallyAsync(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
