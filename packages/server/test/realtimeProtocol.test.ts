import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, TestSocket, websocketUrl } from './support/wsClient';

/** The WebSocket protocol of docs/CONTRACTS.md with real `ws` clients, on each database. */
const variants = await databaseVariants();

describe.each(variants)('realtime protocol ($name)', (variant) => {
  let testServer: TestServer;
  const sockets: TestSocket[] = [];

  async function connect(token: string): Promise<TestSocket> {
    const socket = await authenticatedSocket(testServer.url, token);
    sockets.push(socket);
    return socket;
  }

  beforeAll(async () => {
    testServer = await startTestServer(variant);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await testServer?.close();
  });

  it('authenticates with the record API token, and refuses a bad one with authError and close 4001', async () => {
    const ann = await registerUser(testServer);
    const socket = await TestSocket.open(testServer.url);
    sockets.push(socket);
    expect(await socket.authenticate(ann.pb.authStore.token)).toEqual({ type: 'authSuccess', user_id: ann.record.id });
    const bad = await TestSocket.open(testServer.url);
    expect(await bad.authenticate(`${ann.pb.authStore.token}x`)).toMatchObject({ type: 'authError', message: expect.any(String) });
    expect((await bad.closed).code).toBe(4001);
  });

  it('answers frames before authentication with not_authenticated, and ping with pong', async () => {
    const ann = await registerUser(testServer);
    const socket = await TestSocket.open(testServer.url);
    sockets.push(socket);
    socket.send({ type: 'join_chat', chat_id: 'aaaaaaaaaaaaaaa' });
    expect(await socket.nextOfType('error')).toMatchObject({ code: 'not_authenticated' });
    await socket.authenticate(ann.pb.authStore.token);
    socket.send({ type: 'ping', timestamp: 1234 });
    expect(await socket.nextOfType('pong')).toEqual({ type: 'pong', timestamp: 1234 });
  });

  it('lets participants join, refuses others, and broadcasts a send to every joined socket, sender included', async () => {
    const ann = await registerUser(testServer, { name: 'Ann' });
    const bob = await registerUser(testServer);
    const eve = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await connect(ann.pb.authStore.token);
    const annSecond = await connect(ann.pb.authStore.token);
    const bobSocket = await connect(bob.pb.authStore.token);
    const eveSocket = await connect(eve.pb.authStore.token);
    for (const socket of [annSocket, annSecond, bobSocket]) expect((await socket.join(chat.id)).joined).toMatchObject({ last_seq: 0 });
    eveSocket.send({ type: 'join_chat', chat_id: chat.id });
    expect(await eveSocket.nextOfType('error')).toMatchObject({ code: 'not_a_participant', ref: chat.id });
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: '  Hello there  ', client_id: 'c-1' });
    for (const socket of [annSocket, annSecond, bobSocket]) {
      const frame = await socket.nextOfType('new_message');
      expect(frame).toMatchObject({
        client_id: 'c-1',
        message: {
          chat_id: chat.id, author_id: ann.record.id, author_name: 'Ann', author_username: ann.username,
          content: 'Hello there', message_type: 'regular', seq: 1, is_agent: false,
        },
      });
      expect(frame['message']).toHaveProperty('message_id');
      expect(frame['message']).toHaveProperty('created_at');
    }
    eveSocket.send({ type: 'send_message', chat_id: chat.id, content: 'let me in' });
    expect(await eveSocket.nextOfType('error')).toMatchObject({ code: 'not_a_participant' });
    expect(await eveSocket.collect((frame) => frame.type === 'new_message', 200)).toEqual([]);
    const stored = await testServer.probe.rows('select content_encrypted, seq from messages where chat = $1', [chat.id]);
    expect(stored).toHaveLength(1);
    expect(String(stored[0]?.['content_encrypted'])).not.toContain('Hello');
  });

  it('never stores a retried client_id twice and re-sends the stored message to the sender', async () => {
    const ann = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await connect(ann.pb.authStore.token);
    const bobSocket = await connect(bob.pb.authStore.token);
    await annSocket.join(chat.id);
    await bobSocket.join(chat.id);
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: 'once', client_id: 'retry-1' });
    const first = await annSocket.nextMessage(chat.id);
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: 'once', client_id: 'retry-1' });
    const again = await annSocket.nextOfType('new_message');
    expect(again).toMatchObject({ client_id: 'retry-1', message: { message_id: first.message_id, seq: first.seq } });
    expect(await testServer.probe.count('messages')).toBeGreaterThan(0);
    const rows = await testServer.probe.rows('select id from messages where chat = $1', [chat.id]);
    expect(rows).toHaveLength(1);
    await bobSocket.nextMessage(chat.id);
    expect(await bobSocket.collect((frame) => frame.type === 'new_message', 200)).toEqual([]);
  });

  it('catches up with after_seq after a missed interval: in order, no gap, no duplicate', async () => {
    const ann = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobSocket = await connect(bob.pb.authStore.token);
    await bobSocket.join(chat.id);
    for (let index = 1; index <= 3; index += 1) await postMessage(ann, chat.id, `before ${index}`);
    const seen = [];
    for (let index = 0; index < 3; index += 1) seen.push(await bobSocket.nextMessage(chat.id));
    await bobSocket.close();
    for (let index = 1; index <= 5; index += 1) await postMessage(ann, chat.id, `missed ${index}`);
    const back = await connect(bob.pb.authStore.token);
    const { replayed, joined } = await back.join(chat.id, seen.at(-1)?.seq ?? 0);
    expect(replayed.map((message) => message.content)).toEqual([1, 2, 3, 4, 5].map((index) => `missed ${index}`));
    expect(replayed.map((message) => message.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(joined).toMatchObject({ type: 'joined', chat_id: chat.id, last_seq: 8, has_more: false });
    await postMessage(ann, chat.id, 'live');
    expect(await back.nextMessage(chat.id)).toMatchObject({ content: 'live', seq: 9 });
  });

  it('broadcasts messages created through the record API and carries seq in record JSON', async () => {
    const ann = await registerUser(testServer);
    const chat = await createChat(ann);
    const socket = await connect(ann.pb.authStore.token);
    await socket.join(chat.id);
    const record = await postMessage(ann, chat.id, 'via REST');
    expect(record['seq']).toBe(1);
    expect(await socket.nextMessage(chat.id)).toMatchObject({ message_id: record.id, content: 'via REST', seq: 1 });
    socket.send({ type: 'leave_chat', chat_id: chat.id });
    expect(await socket.nextOfType('left')).toEqual({ type: 'left', chat_id: chat.id });
    await postMessage(ann, chat.id, 'after leaving');
    expect(await socket.collect((frame) => frame.type === 'new_message', 200)).toEqual([]);
  });

  it('answers every malformed frame with an error frame and keeps serving', async () => {
    const ann = await registerUser(testServer);
    const chat = await createChat(ann);
    const socket = await connect(ann.pb.authStore.token);
    const malformed: [unknown, string][] = [
      ['not json {', 'invalid_frame'],
      ['[1,2]', 'invalid_frame'],
      [{ no: 'type' }, 'invalid_frame'],
      [{ type: 'teleport' }, 'invalid_frame'],
      [{ type: 'join_chat' }, 'invalid_frame'],
      [{ type: 'join_chat', chat_id: chat.id, after_seq: -1 }, 'invalid_frame'],
      [{ type: 'send_message', chat_id: chat.id }, 'invalid_frame'],
      [{ type: 'send_message', chat_id: chat.id, content: '   ', client_id: 'blank' }, 'invalid_message'],
      [{ type: 'send_message', chat_id: chat.id, content: 'x'.repeat(10_001) }, 'invalid_message'],
      [Buffer.from([1, 2, 3]), 'invalid_frame'],
    ];
    for (const [frame, code] of malformed) {
      socket.send(frame);
      expect(await socket.nextOfType('error'), JSON.stringify(frame).slice(0, 80)).toMatchObject({ code, message: expect.any(String) });
    }
    socket.send({ type: 'ping', timestamp: 'still alive' });
    expect(await socket.nextOfType('pong')).toMatchObject({ timestamp: 'still alive' });
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'x'.repeat(10_000) });
    expect((await socket.nextMessage()).content).toHaveLength(10_000);
    const oversize = await connect(ann.pb.authStore.token);
    oversize.send(JSON.stringify({ type: 'ping', padding: 'x'.repeat(70 * 1024) }));
    expect(await oversize.nextOfType('error')).toMatchObject({ code: 'frame_too_large' });
    expect((await oversize.closed).code).toBe(1009);
    socket.send({ type: 'ping', timestamp: 2 });
    expect(await socket.nextOfType('pong')).toMatchObject({ timestamp: 2 });
  });

  it('names the field that is too long in invalid_message: client_id is not content', async () => {
    const ann = await registerUser(testServer, { username: `ann${Math.random().toString(36).slice(2, 8)}` });
    const chat = await createChat(ann);
    const socket = await connect(ann.pb.authStore.token);
    const longClientId = 'c'.repeat(101);
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'short and fine', client_id: longClientId });
    expect(await socket.nextOfType('error')).toMatchObject({
      code: 'invalid_message',
      message: 'client_id is longer than 100 characters',
      ref: longClientId,
    });
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'x'.repeat(10_001), client_id: 'long-content' });
    expect(await socket.nextOfType('error')).toMatchObject({
      code: 'invalid_message',
      message: 'message content is longer than 10000 characters',
      ref: 'long-content',
    });
    socket.send({ type: 'send_message', chat_id: chat.id, content: '  ', client_id: 'blank' });
    expect(await socket.nextOfType('error')).toMatchObject({ code: 'invalid_message', message: 'message content is empty after trimming' });
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'fits', client_id: 'c'.repeat(100) });
    expect(await socket.nextOfType('new_message')).toMatchObject({ client_id: 'c'.repeat(100) });
    expect(await testServer.probe.rows('select id from messages where chat = $1', [chat.id])).toHaveLength(1);
  });

  it('rate-limits a flooding socket with rate_limited errors and keeps it open', async () => {
    const ann = await registerUser(testServer);
    const socket = await connect(ann.pb.authStore.token);
    for (let index = 0; index < 80; index += 1) socket.send({ type: 'ping', timestamp: index });
    const limited = await socket.collect((frame) => frame.type === 'error' && frame['code'] === 'rate_limited', 300);
    expect(limited.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.send({ type: 'ping', timestamp: 'after' });
    expect(await socket.next((frame) => frame.type === 'pong' && frame['timestamp'] === 'after')).toBeDefined();
  });

  it('names the refused frame in rate_limited: a flooded send fails its own message by client_id', async () => {
    const ann = await registerUser(testServer);
    const chat = await createChat(ann, { name: 'Flooded sends' });
    const socket = await connect(ann.pb.authStore.token);
    for (let index = 0; index < 60; index += 1) socket.send({ type: 'send_message', chat_id: chat.id, content: `m${index}`, client_id: `flood-${index}` });
    const limited = await socket.collect((frame) => frame.type === 'error' && frame['code'] === 'rate_limited', 500);
    expect(limited.length).toBeGreaterThan(0);
    for (const frame of limited) expect(String(frame['ref'])).toMatch(/^flood-\d+$/);
  });

  it('stops a removed participant receiving within 1 s and tells them chat_removed', async () => {
    const ann = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobSocket = await connect(bob.pb.authStore.token);
    await bobSocket.join(chat.id);
    await ann.pb.collection('chats').update(chat.id, { 'participants-': bob.record.id });
    expect(await bobSocket.nextOfType('chat_removed', 1000)).toEqual({ type: 'chat_removed', chat_id: chat.id });
    await postMessage(ann, chat.id, 'secret after removal');
    expect(await bobSocket.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);
    bobSocket.send({ type: 'join_chat', chat_id: chat.id });
    expect(await bobSocket.nextOfType('error')).toMatchObject({ code: 'not_a_participant' });
  });

  it('sends chat_added, chat_updated and chat_deleted to the affected users', async () => {
    const ann = await registerUser(testServer);
    const bob = await registerUser(testServer);
    const bobSocket = await connect(bob.pb.authStore.token);
    const annSocket = await connect(ann.pb.authStore.token);
    const chat = await createChat(ann, { name: 'Events', participants: [bob.record.id] });
    const added = await bobSocket.nextOfType('chat_added');
    expect(added['chat']).toMatchObject({ id: chat.id, name: 'Events', participants: [ann.record.id, bob.record.id] });
    const expanded = (added['chat'] as { expand: { participants: Record<string, unknown>[] } }).expand.participants;
    expect(expanded.map((user) => user['id'])).toEqual([ann.record.id, bob.record.id]);
    for (const user of expanded) expect(user).not.toHaveProperty('email');
    expect(await annSocket.nextOfType('chat_added')).toMatchObject({ chat: { id: chat.id } });
    await ann.pb.collection('chats').update(chat.id, { name: 'Renamed' });
    expect(await bobSocket.nextOfType('chat_updated')).toMatchObject({ chat: { id: chat.id, name: 'Renamed' } });
    await ann.pb.collection('chats').delete(chat.id);
    expect(await bobSocket.nextOfType('chat_deleted')).toEqual({ type: 'chat_deleted', chat_id: chat.id });
  });

  it('closes every socket of a user whose password changes (close 4001)', async () => {
    const ann = await registerUser(testServer);
    const first = await connect(ann.pb.authStore.token);
    const second = await connect(ann.pb.authStore.token);
    await ann.pb.collection('users').update(ann.record.id, { oldPassword: ann.password, password: 'a brand new one', passwordConfirm: 'a brand new one' });
    expect((await first.closed).code).toBe(4001);
    expect((await second.closed).code).toBe(4001);
  });

  it('refuses an upgrade from a foreign Origin and accepts its own', async () => {
    const refused = new WebSocket(websocketUrl(testServer.url), { headers: { origin: 'https://evil.example' } });
    const status = await new Promise<number>((resolve) => refused.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)));
    expect(status).toBe(403);
    const own = await TestSocket.open(testServer.url, { origin: testServer.url });
    sockets.push(own);
    expect(own.socket.readyState).toBe(WebSocket.OPEN);
  });
});
