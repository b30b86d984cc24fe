/**
 * System lines (docs/CONTRACTS.md, File messages and system lines) on the real server and both
 * databases: membership and name changes write a line authored by the person who made them,
 * structured for clients and with a plain fallback, taking a seq but badging nobody who was
 * caught up, never routed to agents, and never editable or deletable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket, type WireMessage } from './support/wsClient';

const variants = await databaseVariants();

describe.each(variants)('system lines ($name)', (variant) => {
  let testServer: TestServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    testServer = await startTestServer(variant);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await testServer?.close();
  });

  const call = (user: RegisteredUser | undefined, method: string, path: string, body?: unknown) =>
    rawRequest(testServer.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });
  const chatPath = (id: string) => `/api/collections/chats/records/${id}`;
  const unreadOf = async (user: RegisteredUser, chatId: string) => ((await call(user, 'GET', chatPath(chatId))).body as { unread_count: number }).unread_count;

  async function annWithSocket() {
    const ann = await registerUser(testServer, { name: 'Ann' });
    const bob = await registerUser(testServer, { name: 'Bob' });
    const chat = await createChat(ann, { name: 'Plans' });
    const annSocket = await authenticatedSocket(testServer.url, ann.pb.authStore.token);
    sockets.push(annSocket);
    await annSocket.join(chat.id);
    return { ann, bob, chat, annSocket };
  }

  const lineOf = (message: WireMessage) => ({ type: message.message_type, content: message.content, system: message.system });

  it('tells who added and removed whom and who renamed the chat, authored by that person', async () => {
    const { ann, bob, chat, annSocket } = await annWithSocket();
    expect((await call(ann, 'PATCH', chatPath(chat.id), { 'participants+': bob.record.id })).status).toBe(200);
    const added = await annSocket.nextMessage(chat.id);
    expect(added).toMatchObject({ author_id: ann.record.id, is_agent: false, seq: 1 });
    expect(lineOf(added)).toEqual({
      type: 'system',
      content: 'Ann added Bob',
      system: { kind: 'added', actor: { id: ann.record.id, name: 'Ann' }, subject: { id: bob.record.id, name: 'Bob' } },
    });

    expect((await call(ann, 'PATCH', chatPath(chat.id), { name: 'Q3 plans', description: 'quietly changed' })).status).toBe(200);
    expect(lineOf(await annSocket.nextMessage(chat.id))).toEqual({
      type: 'system',
      content: 'Ann renamed the chat to Q3 plans',
      system: { kind: 'renamed', actor: { id: ann.record.id, name: 'Ann' }, name: 'Q3 plans' },
    });
    // The same name again, a description or a setting: nothing to tell.
    await call(ann, 'PATCH', chatPath(chat.id), { name: 'Q3 plans', auto_route_enabled: false });

    expect((await call(ann, 'PATCH', chatPath(chat.id), { 'participants-': bob.record.id })).status).toBe(200);
    expect(lineOf(await annSocket.nextMessage(chat.id))).toMatchObject({ content: 'Ann removed Bob', system: { kind: 'removed', subject: { id: bob.record.id } } });
    expect(await annSocket.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);

    // Stored with their seq and structure: the record API answers them to participants.
    const list = await call(ann, 'GET', `/api/collections/messages/records?sort=seq&filter=${encodeURIComponent(`chat='${chat.id}'`)}`);
    const items = (list.body as { items: Record<string, unknown>[] }).items;
    expect(items.map((item) => [item['seq'], item['message_type'], item['content']])).toEqual([
      [1, 'system', 'Ann added Bob'],
      [2, 'system', 'Ann renamed the chat to Q3 plans'],
      [3, 'system', 'Ann removed Bob'],
    ]);
    expect(items[1]).toMatchObject({ system: { kind: 'renamed', name: 'Q3 plans' }, file: null });
  });

  it('writes at most a burst of 30 lines for a chat renamed in a loop; every rename still happens', async () => {
    const { ann, chat } = await annWithSocket();
    for (let index = 1; index <= 40; index += 1) {
      expect((await call(ann, 'PATCH', chatPath(chat.id), { name: `Name ${index}` })).status).toBe(200);
    }
    expect(((await call(ann, 'GET', chatPath(chat.id))).body as { name: string }).name).toBe('Name 40');
    const list = await call(ann, 'GET', `/api/collections/messages/records?perPage=100&sort=seq&filter=${encodeURIComponent(`chat='${chat.id}'`)}`);
    const lines = (list.body as { items: Record<string, unknown>[] }).items;
    // A few may refill while the loop runs (one each 5 s), never all 40.
    expect(lines.length).toBeGreaterThanOrEqual(30);
    expect(lines.length).toBeLessThan(33);
    expect(lines[0]).toMatchObject({ message_type: 'system', content: 'Ann renamed the chat to Name 1' });
  });

  it('tells who joined by a share link, by username and who left; joiners and caught-up readers get no badge', async () => {
    const { ann, bob, chat, annSocket } = await annWithSocket();
    const carol = await registerUser(testServer, { name: 'Carol' });
    await call(ann, 'POST', '/api/invite-to-chat', { chat_id: chat.id, username: bob.username });
    expect(lineOf(await annSocket.nextMessage(chat.id))).toMatchObject({ content: 'Ann added Bob', system: { kind: 'added' } });
    expect(await unreadOf(bob, chat.id)).toBe(0);
    expect(await unreadOf(ann, chat.id)).toBe(0);

    const link = (await call(ann, 'POST', `/api/create-share-link/${chat.id}`, {})).body as { share_url: string };
    const token = link.share_url.split('/join/')[1] ?? '';
    const joined = await call(undefined, 'POST', `/api/accept-invitation/${token}`, { display_name: 'Dana' });
    expect(joined.status).toBe(200);
    const viaLink = await annSocket.nextMessage(chat.id);
    expect(lineOf(viaLink)).toMatchObject({ content: 'Dana joined via a share link', system: { kind: 'joined_via_link', actor: { name: 'Dana' } } });
    expect(viaLink.author_name).toBe('Dana');
    const accepted = await fetch(`${testServer.url}/api/accept-invitation/${token}`, { headers: { authorization: carol.pb.authStore.token }, redirect: 'manual' });
    expect(accepted.status).toBe(302);
    expect(lineOf(await annSocket.nextMessage(chat.id))).toMatchObject({ content: 'Carol joined via a share link', system: { actor: { id: carol.record.id } } });

    // Bob has one unread message; a system line after it is counted with it, for him only.
    await postMessage(ann, chat.id, 'agenda attached');
    await annSocket.nextMessage(chat.id);
    expect(await unreadOf(bob, chat.id)).toBe(1);
    await call(carol, 'POST', `/api/chats/${chat.id}/read`, { seq: 5 });
    expect((await call(carol, 'POST', `/api/chats/${chat.id}/leave`)).status).toBe(204);
    const left = await annSocket.nextMessage(chat.id);
    expect(lineOf(left)).toMatchObject({ content: 'Carol left', system: { kind: 'left', actor: { id: carol.record.id, name: 'Carol' } } });
    expect(await unreadOf(ann, chat.id)).toBe(0);
    expect(await unreadOf(bob, chat.id)).toBe(2);
    // Ann's sessions learn the position moved onto the line, so their count stays right.
    const readState = await annSocket.next((frame) => frame.type === 'read_state' && frame['last_read_seq'] === left.seq);
    expect(readState).toMatchObject({ chat_id: chat.id, unread_count: 0 });
  });

  it('never routes a system line to an agent, and nobody edits or deletes one', async () => {
    const { ann, bob, chat, annSocket } = await annWithSocket();
    expect((await call(ann, 'PATCH', chatPath(chat.id), { name: '@data tables', 'participants+': bob.record.id })).status).toBe(200);
    const lines = [await annSocket.nextMessage(chat.id), await annSocket.nextMessage(chat.id)];
    expect(lines.map((line) => line.content).sort()).toEqual(['Ann added Bob', 'Ann renamed the chat to @data tables']);
    // @data answers every mention of it; a rename naming it is no mention.
    expect(await annSocket.collect((frame) => frame.type === 'new_message' || frame.type === 'stream_started', 1500)).toEqual([]);

    for (const line of lines) {
      const path = `/api/collections/messages/records/${line.message_id}`;
      expect((await call(ann, 'PATCH', path, { content: 'Ann did nothing' })).status).toBe(404);
      expect((await call(ann, 'DELETE', path)).status).toBe(404);
    }
    // The control: the same words as a message do reach @data.
    await postMessage(ann, chat.id, '@data tables');
    await annSocket.nextMessage(chat.id);
    expect(await annSocket.nextMessage(chat.id, 15_000)).toMatchObject({ author_username: 'data', is_agent: true });
    const outsider = await registerUser(testServer);
    expect((await call(outsider, 'GET', `/api/collections/messages/records/${lines[0]!.message_id}`)).status).toBe(404);
  });
});
