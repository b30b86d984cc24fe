import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfabServer } from '../src/index';
import { registerOn, signedInOn, startCluster, type Cluster } from './support/cluster';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, type RegisteredUser } from './support/fixtures';
import { redisAvailable } from './support/redis';
import { authenticatedSocket, TestSocket, type WireMessage } from './support/wsClient';
import { rawRequest } from './support/http';
import type { AgentKeyAnswer, Mention } from '@confab/client/protocol';

/**
 * Two confab-server instances on one PostgreSQL (a fresh schema) and one Redis, as behind a load
 * balancer: they share CONFAB_SECRET, so a token or a ciphertext from one is valid on the other.
 */
const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');
const runnable = postgres !== undefined && (await redisAvailable());

describe.runIf(runnable)('two instances on one PostgreSQL and one Redis', () => {
  const sockets: TestSocket[] = [];
  let cluster: Cluster | undefined;
  let instanceA: ConfabServer;
  let instanceB: ConfabServer;

  const on = signedInOn;
  const socketOn = async (server: ConfabServer, user: RegisteredUser) => {
    const socket = await authenticatedSocket(server.url, user.pb.authStore.token);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    cluster = await startCluster(postgres!.baseUrl!, { secret: 'shared-secret-of-the-cluster' });
    ({ a: instanceA, b: instanceB } = cluster);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await cluster?.close();
  });

  const register = (server: ConfabServer) => registerOn(server);

  it('delivers a message sent through instance A to a client of instance B, in seq order from both', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceB);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annOnA = await socketOn(instanceA, ann);
    const bobOnB = await socketOn(instanceB, bob);
    await annOnA.join(chat.id);
    await bobOnB.join(chat.id);
    annOnA.send({ type: 'send_message', chat_id: chat.id, content: 'from A', client_id: 'a-1' });
    expect(await bobOnB.nextMessage(chat.id)).toMatchObject({ content: 'from A', seq: 1, author_id: ann.record.id });
    expect(await annOnA.nextMessage(chat.id)).toMatchObject({ content: 'from A', seq: 1 });
    // Both instances write at once: the sequence stays gapless and each client sees it in order.
    const bobViaB = on(instanceB, bob);
    await Promise.all([
      (async () => { for (let index = 0; index < 15; index += 1) await postMessage(ann, chat.id, `A ${index}`); })(),
      (async () => { for (let index = 0; index < 15; index += 1) await postMessage(bobViaB, chat.id, `B ${index}`); })(),
    ]);
    const seenByBob: WireMessage[] = [];
    const seenByAnn: WireMessage[] = [];
    for (let index = 0; index < 30; index += 1) {
      seenByBob.push(await bobOnB.nextMessage(chat.id));
      seenByAnn.push(await annOnA.nextMessage(chat.id));
    }
    const expectedSeqs = Array.from({ length: 30 }, (_, index) => index + 2);
    expect(seenByBob.map((message) => message.seq)).toEqual(expectedSeqs);
    expect(seenByAnn.map((message) => message.seq)).toEqual(expectedSeqs);
  });

  it('a removal on A cuts the removed user’s socket on B, and a password change on A closes B’s sockets', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceA);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobOnB = await socketOn(instanceB, bob);
    await bobOnB.join(chat.id);
    await ann.pb.collection('chats').update(chat.id, { 'participants-': bob.record.id });
    expect(await bobOnB.nextOfType('chat_removed', 1000)).toEqual({ type: 'chat_removed', chat_id: chat.id });
    await postMessage(ann, chat.id, 'not for Bob');
    expect(await bobOnB.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);
    await bob.pb.collection('users').update(bob.record.id, { oldPassword: bob.password, password: 'rotated password', passwordConfirm: 'rotated password' });
    expect((await bobOnB.closed).code).toBe(4001);
  });

  it('routes a mention stored on A to an agent connected to B, whose streamed reply reaches A’s people; a key rotated on A cuts B', async () => {
    const ann = await register(instanceA);
    const dev = await register(instanceA);
    const chat = await createChat(ann, { name: 'Across instances' });
    await ann.pb.collection('chats').update(chat.id, { agent_permissions: { confab_agents: true, developer_agents: true } });
    const created = (await rawRequest(instanceA.url, 'POST', '/api/agents', { token: dev.pb.authStore.token, body: { name: 'Far Agent' } })).body as AgentKeyAnswer;
    const agentOnB = await TestSocket.open(instanceB.url);
    sockets.push(agentOnB);
    agentOnB.send({ type: 'authenticate_with_api_key', api_key: created.api_key });
    expect((await agentOnB.nextOfType('authSuccess'))['agent']).toMatchObject({ id: created.agent.id });
    const annOnA = await socketOn(instanceA, ann);
    await annOnA.join(chat.id);
    // Presence is shared: A knows the agent is online on B, so no offline notice.
    await postMessage(ann, chat.id, `@${created.agent.username} hello from A`);
    const { mention } = (await agentOnB.nextOfType('mention')) as unknown as { mention: Mention };
    expect(mention).toMatchObject({ chat_id: chat.id, content: `@${created.agent.username} hello from A` });
    agentOnB.send({ type: 'mention_ack', mention_id: mention.mention_id });
    agentOnB.send({ type: 'stream_start', chat_id: chat.id, stream_id: 'far', mention_id: mention.mention_id });
    agentOnB.send({ type: 'stream_append', stream_id: 'far', text: 'answered ' });
    agentOnB.send({ type: 'stream_append', stream_id: 'far', text: 'from B' });
    agentOnB.send({ type: 'stream_end', stream_id: 'far' });
    expect(await annOnA.nextOfType('stream_started', 5000)).toMatchObject({ stream_id: 'far' });
    const final = await annOnA.next((frame) => frame.type === 'new_message' && frame['stream_id'] === 'far', 5000);
    expect(final['message']).toMatchObject({ content: 'answered from B', author_id: created.agent.id, is_agent: true });
    expect(await annOnA.collect((frame) => frame.type === 'agent_notice', 200)).toEqual([]);
    const rotated = await rawRequest(instanceA.url, 'POST', `/api/agents/${created.agent.id}/rotate-key`, { token: dev.pb.authStore.token });
    expect(rotated.status).toBe(200);
    expect((await agentOnB.closed).code).toBe(4001);
  });

  it('keeps read state across instances: activity from A reaches B, a read on A moves B’s sessions', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceA);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobOnB = await socketOn(instanceB, bob);
    await postMessage(ann, chat.id, `hello @${bob.username}`);
    expect(await bobOnB.nextOfType('chat_activity')).toMatchObject({ chat_id: chat.id, seq: 1, mentions_you: true, author_id: ann.record.id });
    const bobOnA = on(instanceA, bob);
    expect(await bobOnA.pb.collection('chats').getOne(chat.id)).toMatchObject({ unread_count: 1, mention_count: 1 });
    const read = await rawRequest(instanceA.url, 'POST', `/api/chats/${chat.id}/read`, { token: bob.pb.authStore.token, body: { seq: 1 } });
    expect(read.status).toBe(200);
    expect(await bobOnB.nextOfType('read_state')).toEqual({ type: 'read_state', chat_id: chat.id, last_read_seq: 1, unread_count: 0, mention_count: 0, muted: false, notify_level: 'mentions' });
    expect(await on(instanceB, bob).pb.collection('chats').getOne(chat.id)).toMatchObject({ unread_count: 0, last_read_seq: 1 });
  });

  it('carries typing and presence across instances: who types on A is seen on B, who comes online on B is seen on A', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceA);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annOnA = await socketOn(instanceA, ann);
    const bobOnB = await socketOn(instanceB, bob);
    expect(await annOnA.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.record.id)).toEqual({ type: 'presence', user_id: bob.record.id, online: true });
    const onlineOnA = await rawRequest(instanceA.url, 'GET', `/api/chats/${chat.id}/presence`, { token: ann.pb.authStore.token });
    expect(new Set((onlineOnA.body as { online: string[] }).online)).toEqual(new Set([ann.record.id, bob.record.id]));
    await annOnA.join(chat.id);
    await bobOnB.join(chat.id);
    annOnA.send({ type: 'typing', chat_id: chat.id });
    expect(await bobOnB.nextOfType('typing')).toEqual({ type: 'typing', chat_id: chat.id, user_id: ann.record.id, username: ann.username, name: '' });
    // A second socket of Bob's on A keeps him online when the one on B closes; the last one takes him offline.
    const bobOnA = await socketOn(instanceA, bob);
    await bobOnB.close();
    expect(await annOnA.collect((frame) => frame.type === 'presence', 300)).toEqual([]);
    await bobOnA.close();
    expect(await annOnA.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.record.id)).toEqual({ type: 'presence', user_id: bob.record.id, online: false });
  });

  it('carries a reply stored on B to A: the reply with its quote, and the original with its new count', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceA);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const original = await postMessage(ann, chat.id, 'Lunch at 12?');
    const annOnA = await socketOn(instanceA, ann);
    await annOnA.join(chat.id);
    const reply = await rawRequest(instanceB.url, 'POST', '/api/collections/messages/records', {
      token: bob.pb.authStore.token,
      body: { chat: chat.id, content: 'Yes', reply_to: original.id },
    });
    expect(reply.status).toBe(200);
    const arrived = await annOnA.next((frame) => frame.type === 'new_message' && (frame['message'] as { content?: string }).content === 'Yes');
    expect(arrived['message']).toMatchObject({ reply_to: original.id, reply_to_preview: { message_id: original.id, excerpt: 'Lunch at 12?' } });
    const counted = await annOnA.next((frame) => frame.type === 'message_updated' && (frame['message'] as { message_id?: string }).message_id === original.id);
    expect(counted['message']).toMatchObject({ reply_count: 1 });
  });

  it('keeps reactions exact when both instances take clicks on one message at once; each sees the same last summary', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceB);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const message = await postMessage(ann, chat.id, 'react to me');
    const annOnA = await socketOn(instanceA, ann);
    const bobOnB = await socketOn(instanceB, bob);
    await annOnA.join(chat.id);
    await bobOnB.join(chat.id);
    const path = (emoji: string) => `/api/messages/${message.id}/reactions/${encodeURIComponent(emoji)}`;
    const emoji = ['👍', '🎉', '🚀', '👀', '❤️'];
    await Promise.all(
      emoji.flatMap((each) => [
        rawRequest(instanceA.url, 'PUT', path(each), { token: ann.pb.authStore.token }),
        rawRequest(instanceB.url, 'PUT', path(each), { token: bob.pb.authStore.token }),
      ]),
    );
    const lastOf = async (socket: TestSocket) => {
      let last: Record<string, unknown> = {};
      for (let index = 0; index < 10; index += 1) {
        const frame = await socket.nextOfType('reactions_changed');
        if (Number(frame['version']) > Number(last['version'] ?? 0)) last = frame;
      }
      return last;
    };
    const [onA, onB] = await Promise.all([lastOf(annOnA), lastOf(bobOnB)]);
    expect(onA['version']).toBe(10);
    expect(onB).toEqual(onA);
    expect((onA['reactions'] as { emoji: string; count: number }[]).map((reaction) => reaction.count)).toEqual([2, 2, 2, 2, 2]);
  });
});
