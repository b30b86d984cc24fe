import { describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { serverWithSockets } from './support/serverWithSockets';
import { messageOf } from './support/wsClient';

/**
 * Edits and deletions (docs/CONTRACTS.md, Edits and deletions) on the real server and both
 * databases: who may, what the record API and the socket answer, the live frames, and what a
 * client that was away finds when it comes back.
 */
const variants = await databaseVariants();

describe.each(variants)('editing and deleting messages ($name)', (variant) => {
  const world = serverWithSockets(variant);
  const { socketOf } = world;
  const call = (user: RegisteredUser | undefined, method: string, path: string, body?: unknown) =>
    rawRequest(world.server.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });
  const messagePath = (id: string) => `/api/collections/messages/records/${id}`;

  /** Ann (admin) and Bob in a chat, Bob's socket joined to it. */
  async function team() {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const eve = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobSocket = await socketOf(bob);
    await bobSocket.join(chat.id);
    return { ann, bob, eve, chat, bobSocket };
  }

  it('lets the author edit: edited_at set, the others see message_updated live', async () => {
    const { ann, bob, eve, chat, bobSocket } = await team();
    const message = await postMessage(ann, chat.id, 'Lunch at 12?');
    await bobSocket.nextMessage(chat.id);
    expect(message['edited_at']).toBe('');

    const edited = await call(ann, 'PATCH', messagePath(message.id), { content: '  Lunch at 1?  ' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: message.id, content: 'Lunch at 1?', seq: 1, deleted_at: '' });
    const editedAt = (edited.body as Record<string, string>)['edited_at']!;
    expect(editedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z$/);

    const frame = await bobSocket.nextOfType('message_updated');
    expect(frame['message']).toMatchObject({ message_id: message.id, chat_id: chat.id, content: 'Lunch at 1?', seq: 1, edited_at: editedAt, author_id: ann.record.id });

    // Only the author: another participant, an outsider and a guest get the 404 of a message they cannot change.
    for (const [who, user] of [['bob', bob], ['eve', eve], ['guest', undefined]] as const) {
      expect((await call(user, 'PATCH', messagePath(message.id), { content: 'hijack' })).status, who).toBe(404);
    }
    const blank = await call(ann, 'PATCH', messagePath(message.id), { content: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ message: 'Failed to update record.', data: { content: { code: 'validation_required' } } });
    expect((await ann.pb.collection('messages').getOne(message.id))['content']).toBe('Lunch at 1?');
  });

  it('lets the author or a chat admin delete: the row stays with its seq, emptied, and the others see message_deleted', async () => {
    const { ann, bob, eve, chat, bobSocket } = await team();
    const first = await postMessage(bob, chat.id, 'oops, wrong chat');
    const second = await postMessage(bob, chat.id, 'something rude');
    const third = await postMessage(ann, chat.id, 'still here');
    for (let index = 0; index < 3; index += 1) await bobSocket.nextMessage(chat.id);

    expect((await call(bob, 'DELETE', messagePath(first.id))).status).toBe(204);
    expect(await bobSocket.nextOfType('message_deleted')).toMatchObject({ chat_id: chat.id, message_id: first.id, seq: 1 });
    // Moderation: the chat's admin deletes Bob's message; Bob may not delete Ann's, nor may an outsider.
    expect((await call(ann, 'DELETE', messagePath(second.id))).status).toBe(204);
    expect((await call(bob, 'DELETE', messagePath(third.id))).status).toBe(404);
    expect((await call(eve, 'DELETE', messagePath(third.id))).status).toBe(404);
    expect((await call(undefined, 'DELETE', messagePath(third.id))).status).toBe(404);
    // Deleted is final: no second delete, no edit.
    expect((await call(bob, 'DELETE', messagePath(first.id))).status).toBe(404);
    expect((await call(bob, 'PATCH', messagePath(first.id), { content: 'back' })).status).toBe(404);

    const listed = await bob.pb.collection('messages').getFullList({ filter: bob.pb.filter('chat = {:chat}', { chat: chat.id }), sort: 'seq' });
    expect(listed.map((message) => [message['seq'], message['content'], message['deleted_at'] !== ''])).toEqual([
      [1, '', true],
      [2, '', true],
      [3, 'still here', false],
    ]);
    // Nothing of the deleted text is left at rest either.
    const stored = await world.server.probe.rows('select content_encrypted from messages where id = $1', [second.id]);
    expect(String(stored[0]?.['content_encrypted'])).not.toContain('rude');
  });

  it('edits and deletes over the socket, for people and with refusals naming the message', async () => {
    const { ann, chat, bobSocket } = await team();
    const annSocket = await socketOf(ann);
    await annSocket.join(chat.id);
    const message = await postMessage(ann, chat.id, 'typo hre');
    await bobSocket.nextMessage(chat.id);
    await annSocket.nextMessage(chat.id);

    annSocket.send({ type: 'edit_message', message_id: message.id, content: 'typo here' });
    expect((await bobSocket.nextOfType('message_updated'))['message']).toMatchObject({ message_id: message.id, content: 'typo here' });
    expect((await annSocket.nextOfType('message_updated'))['message']).toMatchObject({ content: 'typo here' });

    bobSocket.send({ type: 'edit_message', message_id: message.id, content: 'not yours' });
    expect(await bobSocket.nextOfType('error')).toMatchObject({ code: 'not_allowed', message: 'no message you may edit has this id', ref: message.id });
    annSocket.send({ type: 'edit_message', message_id: message.id, content: ' ' });
    expect(await annSocket.nextOfType('error')).toMatchObject({ code: 'invalid_message', message: 'message content is empty after trimming', ref: message.id });
    annSocket.send({ type: 'edit_message', message_id: message.id });
    expect(await annSocket.nextOfType('error')).toMatchObject({ code: 'invalid_frame', ref: message.id });

    bobSocket.send({ type: 'delete_message', message_id: message.id });
    expect(await bobSocket.nextOfType('error')).toMatchObject({ code: 'not_allowed', message: 'no message you may delete has this id', ref: message.id });
    annSocket.send({ type: 'delete_message', message_id: message.id });
    expect(await bobSocket.nextOfType('message_deleted')).toMatchObject({ message_id: message.id, seq: 1 });
  });

  it('gives a client that was away the changes: the replay carries deletions, `updated >` finds the edits', async () => {
    const { ann, bob, chat } = await team();
    const kept = await postMessage(ann, chat.id, 'first draft');
    const gone = await postMessage(ann, chat.id, 'never mind');
    const since = String(gone['updated']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call(ann, 'PATCH', messagePath(kept.id), { content: 'final text' });
    await call(ann, 'DELETE', messagePath(gone.id));

    // Joining from seq 0 replays both, as they are now.
    const away = await socketOf(bob);
    const { replayed } = await away.join(chat.id, 0);
    expect(replayed.map((message) => [message.seq, message.content, message.edited_at !== undefined, message.deleted_at !== undefined])).toEqual([
      [1, 'final text', true, false],
      [2, '', false, true],
    ]);
    // A client holding both already asks what changed since it last looked.
    const changed = await bob.pb.collection('messages').getFullList({ filter: bob.pb.filter('chat = {:chat} && updated > {:since}', { chat: chat.id, since }), sort: 'seq' });
    expect(changed.map((message) => [message.id, message['content'], message['deleted_at'] !== ''])).toEqual([
      [kept.id, 'final text', false],
      [gone.id, '', true],
    ]);
    expect(messageOf({ type: 'new_message', message: replayed[0]! }).content).toBe('final text');
  });
});
