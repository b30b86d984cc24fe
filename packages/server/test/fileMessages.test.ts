/**
 * File messages (docs/CONTRACTS.md, File messages and system lines) on the real server and both
 * databases: a person's upload posts a card everyone sees live, deleting the file marks the card
 * for live sockets and for clients catching up by `updated`, and only the server writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

/** Uploads through the record API as a browser does (multipart, one file part). */
async function uploadFile(url: string, user: RegisteredUser, chatId: string, name: string, content: string | Uint8Array) {
  const form = new FormData();
  form.append('chat', chatId);
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  const response = await fetch(`${url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${user.pb.authStore.token}` }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(variants)('file messages ($name)', (variant) => {
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

  async function team() {
    const ann = await registerUser(testServer, { name: 'Ann' });
    const bob = await registerUser(testServer, { name: 'Bob' });
    const eve = await registerUser(testServer, { name: 'Eve' });
    const chat = await createChat(ann, { name: 'Sales', participants: [bob.record.id] });
    const bobSocket = await authenticatedSocket(testServer.url, bob.pb.authStore.token);
    sockets.push(bobSocket);
    await bobSocket.join(chat.id);
    return { ann, bob, eve, chat, bobSocket };
  }

  it('posts a file message on upload that the others see live, with a plain fallback and an unread count', async () => {
    const { ann, bob, eve, chat, bobSocket } = await team();
    const uploaded = await uploadFile(testServer.url, ann, chat.id, 'sales.csv', 'region,total\nnorth,10\n');
    expect(uploaded.status).toBe(200);
    const fileId = String(uploaded.body['id']);

    const live = await bobSocket.nextMessage(chat.id);
    expect(live).toMatchObject({
      chat_id: chat.id,
      author_id: ann.record.id,
      author_name: 'Ann',
      message_type: 'file',
      content: 'shared sales.csv',
      is_agent: false,
      file: { file_id: fileId, name: 'sales.csv', file: uploaded.body['file'], type: 'text/csv', size: 22 },
    });
    expect(live.file?.deleted).toBeUndefined();
    const activity = await bobSocket.nextOfType('chat_activity');
    expect(activity).toMatchObject({ chat_id: chat.id, seq: live.seq, author_id: ann.record.id });

    // The record API carries it too (file and system are null on other messages), for participants only.
    const list = await call(bob, 'GET', `/api/collections/messages/records?filter=${encodeURIComponent(`chat='${chat.id}'`)}`);
    expect((list.body as { items: Record<string, unknown>[] }).items).toEqual([
      expect.objectContaining({ id: live.message_id, message_type: 'file', content: 'shared sales.csv', file: live.file, system: null }),
    ]);
    expect((await call(eve, 'GET', `/api/collections/messages/records/${live.message_id}`)).status).toBe(404);
    const bobChat = await call(bob, 'GET', `/api/collections/chats/records/${chat.id}`);
    expect(bobChat.body).toMatchObject({ unread_count: 1 });
    const annChat = await call(ann, 'GET', `/api/collections/chats/records/${chat.id}`);
    expect(annChat.body).toMatchObject({ unread_count: 0 });
  });

  it('marks the card deleted when the file goes: live, and for a client catching up by updated', async () => {
    const { ann, chat, bobSocket } = await team();
    const uploaded = await uploadFile(testServer.url, ann, chat.id, 'notes.md', '# Notes\n');
    const card = await bobSocket.nextMessage(chat.id);
    const before = String(((await call(ann, 'GET', `/api/collections/messages/records/${card.message_id}`)).body as Record<string, unknown>)['updated']);

    expect((await call(ann, 'DELETE', `/api/collections/files/records/${String(uploaded.body['id'])}`)).status).toBe(204);
    const updated = messageOf(await bobSocket.nextOfType('message_updated'));
    expect(updated).toMatchObject({ message_id: card.message_id, seq: card.seq, content: 'shared notes.md', file: { ...card.file, deleted: true } });

    const filter = encodeURIComponent(`chat = '${chat.id}' && updated > '${before}'`);
    const changed = await call(ann, 'GET', `/api/collections/messages/records?filter=${filter}`);
    expect((changed.body as { items: Record<string, unknown>[] }).items).toEqual([expect.objectContaining({ id: card.message_id, file: expect.objectContaining({ deleted: true }) })]);
  });

  it('lets nobody post, edit or forge a file message through the record API', async () => {
    const { ann, chat, bobSocket } = await team();
    const forged = await call(ann, 'POST', '/api/collections/messages/records', { chat: chat.id, content: 'shared x', message_type: 'file' });
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ data: { message_type: { code: 'validation_invalid_value' } } });
    const withFile = await call(ann, 'POST', '/api/collections/messages/records', { chat: chat.id, content: 'hello', file: { file_id: 'x', name: 'evil.exe' } });
    expect(withFile.status).toBe(200);
    expect(withFile.body).toMatchObject({ message_type: 'regular', file: null });
    await bobSocket.nextMessage(chat.id);

    await uploadFile(testServer.url, ann, chat.id, 'plan.txt', 'plan\n');
    const card = await bobSocket.nextMessage(chat.id);
    // Even its author cannot rewrite what the server wrote; deleting the card (not the file) is allowed.
    expect((await call(ann, 'PATCH', `/api/collections/messages/records/${card.message_id}`, { content: 'shared something else' })).status).toBe(404);
    expect((await call(ann, 'DELETE', `/api/collections/messages/records/${card.message_id}`)).status).toBe(204);
    const gone = await call(ann, 'GET', `/api/collections/messages/records/${card.message_id}`);
    expect(gone.body).toMatchObject({ content: '', file: null, message_type: 'file' });
  });

  it('refuses a bad upload without posting anything', async () => {
    const { ann, chat, bobSocket } = await team();
    expect((await uploadFile(testServer.url, ann, chat.id, 'tool.exe', 'MZ')).status).toBe(400);
    expect((await uploadFile(testServer.url, ann, chat.id, 'photo.png', 'not a picture')).status).toBe(400);
    expect(await bobSocket.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);
  });
});
