import { describe, expect, it } from 'vitest';
import type { ChatReadState } from '@confab/client/protocol';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { serverWithSockets } from './support/serverWithSockets';
import type { Frame } from './support/wsClient';

/**
 * Unread state (docs/CONTRACTS.md, Unread state): read positions per person and chat, counts in
 * the chat records, POST /api/chats/{id}/read and /mute, the mark_read frame, and the live
 * read_state and chat_activity frames, on the real server and both databases.
 */
const variants = await databaseVariants();

describe.each(variants)('unread state ($name)', (variant) => {
  const world = serverWithSockets(variant);
  const { socketOf } = world;
  const stateIn = async (user: RegisteredUser, chatId: string) => {
    const chat = await user.pb.collection('chats').getOne(chatId);
    return { last_read_seq: chat['last_read_seq'], unread_count: chat['unread_count'], mention_count: chat['mention_count'], muted: chat['muted'] };
  };
  const listed = async (user: RegisteredUser, chatId: string) => {
    const chats = await user.pb.collection('chats').getFullList({ sort: '-updated' });
    return chats.find((chat) => chat.id === chatId);
  };
  const post = (user: RegisteredUser | undefined, chatId: string, path: 'read' | 'mute', body: unknown) =>
    rawRequest(world.server.url, 'POST', `/api/chats/${chatId}/${path}`, { body, ...(user === undefined ? {} : { token: user.pb.authStore.token }) });
  /** Waits for the after-post work (the author's position, mentions, frames), which runs after the send is answered. */
  const eventually = async (check: () => Promise<void>) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  };

  it('starts a new participant at the newest message: the history they join is not unread', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { name: 'History' });
    for (const text of ['one', 'two', 'three']) await postMessage(ann, chat.id, text);
    await ann.pb.collection('chats').update(chat.id, { 'participants+': bob.record.id });
    // Seq 4 is the system line 'added' (docs/CONTRACTS.md, File messages and system lines): read, as it badges nobody caught up.
    expect(await stateIn(bob, chat.id)).toEqual({ last_read_seq: 4, unread_count: 0, mention_count: 0, muted: false });
    // Someone who leaves and comes back starts over at the newest message, not where they left off.
    await postMessage(ann, chat.id, 'four');
    expect(await stateIn(bob, chat.id)).toMatchObject({ last_read_seq: 4, unread_count: 1 });
    await ann.pb.collection('chats').update(chat.id, { 'participants-': bob.record.id });
    for (const text of ['five', 'six']) await postMessage(ann, chat.id, text);
    await ann.pb.collection('chats').update(chat.id, { 'participants+': bob.record.id });
    // Seq 6 'removed', 7 and 8 the messages, 9 'added' again.
    expect(await stateIn(bob, chat.id)).toEqual({ last_read_seq: 9, unread_count: 0, mention_count: 0, muted: false });
  });

  it("counts others' messages and mentions of me, never my own, and tells my sessions live", async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { name: 'Launch Plan', participants: [bob.record.id] });
    const bobsOtherTab = await socketOf(bob);
    await postMessage(ann, chat.id, 'first');
    await postMessage(ann, chat.id, `@${bob.username} can you look? (not @${ann.username}'s own)`);
    await postMessage(ann, chat.id, `mail ${bob.username}@example.test is no mention`);
    expect(await listed(bob, chat.id)).toMatchObject({ last_seq: 3, last_read_seq: 0, unread_count: 3, mention_count: 1, muted: false });
    // Bob never joined the chat's room, yet his socket hears of each message.
    const activity = [await bobsOtherTab.nextOfType('chat_activity'), await bobsOtherTab.nextOfType('chat_activity'), await bobsOtherTab.nextOfType('chat_activity')];
    expect(activity.map((frame) => [frame['seq'], frame['mentions_you'], frame['author_id'], frame['chat_id']])).toEqual([
      [1, false, ann.record.id, chat.id],
      [2, true, ann.record.id, chat.id],
      [3, false, ann.record.id, chat.id],
    ]);
    expect(typeof activity[2]!['updated']).toBe('string');
    // The author's own messages never count for her, and her sessions are told her position moved.
    await eventually(async () => expect(await stateIn(ann, chat.id)).toMatchObject({ last_read_seq: 3, unread_count: 0, mention_count: 0 }));

    // Bob reads up to the mention: one unread left, no mention; his other tab gets read_state.
    const answer = await post(bob, chat.id, 'read', { seq: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ chat_id: chat.id, last_read_seq: 2, unread_count: 1, mention_count: 0, muted: false, notify_level: 'mentions' } satisfies ChatReadState);
    expect(await bobsOtherTab.nextOfType('read_state')).toEqual({ type: 'read_state', chat_id: chat.id, last_read_seq: 2, unread_count: 1, mention_count: 0, muted: false, notify_level: 'mentions' });
    // Never back, and capped at the newest message.
    expect((await post(bob, chat.id, 'read', { seq: 1 })).body).toMatchObject({ last_read_seq: 2, unread_count: 1 });
    expect((await post(bob, chat.id, 'read', { seq: 999 })).body).toMatchObject({ last_read_seq: 3, unread_count: 0 });

    // Posting reads the chat for its author: Bob's reply leaves him nothing unread.
    await postMessage(ann, chat.id, 'four');
    await postMessage(bob, chat.id, 'five, from bob');
    await eventually(async () => expect(await stateIn(bob, chat.id)).toMatchObject({ last_read_seq: 5, unread_count: 0 }));
    const ownActivity = await bobsOtherTab.collect((frame) => frame.type === 'chat_activity' && frame['seq'] === 5, 200);
    expect(ownActivity).toEqual([]);
    expect(await bobsOtherTab.next((frame) => frame.type === 'read_state' && frame['last_read_seq'] === 5)).toMatchObject({ unread_count: 0 });
  });

  it('moves the position over the socket with mark_read, for every session of the person', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    for (const text of ['a', 'b', 'c']) await postMessage(ann, chat.id, text);
    const tabOne = await socketOf(bob);
    const tabTwo = await socketOf(bob);
    tabOne.send({ type: 'mark_read', chat_id: chat.id, seq: 2 });
    const isState = (frame: Frame) => frame.type === 'read_state' && frame['chat_id'] === chat.id;
    expect(await tabOne.next(isState)).toMatchObject({ last_read_seq: 2, unread_count: 1 });
    expect(await tabTwo.next(isState)).toMatchObject({ last_read_seq: 2, unread_count: 1 });
    expect(await stateIn(bob, chat.id)).toMatchObject({ last_read_seq: 2, unread_count: 1 });
    // Refusals are error frames naming the chat, and change nothing.
    tabOne.send({ type: 'mark_read', chat_id: chat.id, seq: -1 });
    expect(await tabOne.nextOfType('error')).toMatchObject({ code: 'invalid_frame', message: 'seq must be a non-negative integer', ref: chat.id });
    tabOne.send({ type: 'mark_read', chat_id: chat.id, seq: '3' });
    expect(await tabOne.nextOfType('error')).toMatchObject({ code: 'invalid_frame', ref: chat.id });
    const stranger = await registerUser(world.server);
    const strangerSocket = await socketOf(stranger);
    strangerSocket.send({ type: 'mark_read', chat_id: chat.id, seq: 3 });
    expect(await strangerSocket.nextOfType('error')).toMatchObject({ code: 'not_a_participant', ref: chat.id });
    expect(await stateIn(bob, chat.id)).toMatchObject({ last_read_seq: 2 });
  });

  it('mutes and unmutes a chat for one person only', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const muted = await post(bob, chat.id, 'mute', { muted: true });
    expect(muted.status).toBe(200);
    expect(muted.body).toMatchObject({ chat_id: chat.id, muted: true });
    expect(await stateIn(bob, chat.id)).toMatchObject({ muted: true });
    expect(await stateIn(ann, chat.id)).toMatchObject({ muted: false });
    // Muting keeps the position and the counts as they are.
    await postMessage(ann, chat.id, 'while muted');
    expect(await stateIn(bob, chat.id)).toMatchObject({ muted: true, unread_count: 1 });
    expect((await post(bob, chat.id, 'mute', { muted: false })).body).toMatchObject({ muted: false, unread_count: 1 });
  });

  it('refuses bad input with field errors, strangers with 404 and guests with 401', async () => {
    const ann = await registerUser(world.server);
    const stranger = await registerUser(world.server);
    const chat = await createChat(ann);
    for (const seq of [-1, 1.5, '2', null, undefined]) {
      const answer = await post(ann, chat.id, 'read', seq === undefined ? {} : { seq });
      expect(answer.status, String(seq)).toBe(400);
      expect(answer.body).toEqual({
        status: 400,
        message: 'Failed to mark the chat read.',
        data: { seq: { code: 'validation_invalid_value', message: 'Must be a whole number of 0 or more.' } },
      });
    }
    for (const value of ['yes', 1, null]) {
      const answer = await post(ann, chat.id, 'mute', { muted: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ message: 'Failed to change the chat.', data: { muted: { code: 'validation_invalid_value', message: 'Must be true or false.' } } });
    }
    expect((await post(stranger, chat.id, 'read', { seq: 0 })).status).toBe(404);
    expect((await post(stranger, chat.id, 'mute', { muted: true })).status).toBe(404);
    expect((await post(stranger, 'nosuchchat0000', 'read', { seq: 0 })).status).toBe(404);
    expect((await post(undefined, chat.id, 'read', { seq: 0 })).status).toBe(401);
    expect((await post(undefined, chat.id, 'mute', { muted: true })).status).toBe(401);
    // Nothing was written for the stranger.
    const rows = await world.server.probe.rows('select user_id from chat_reads where chat_id = $1', [chat.id]);
    expect(rows.map((row) => row['user_id'])).toEqual([ann.record.id]);
  });

  it('answers each chat of the list with its own counts', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chats = [];
    for (let index = 0; index < 4; index += 1) chats.push(await createChat(ann, { name: `Chat ${index}`, participants: [bob.record.id] }));
    for (const [index, chat] of chats.entries()) {
      for (let count = 0; count < index; count += 1) await postMessage(ann, chat.id, count === 0 ? `hey @${bob.username}` : `more ${count}`);
    }
    const list = await bob.pb.collection('chats').getFullList({ sort: '-updated' });
    const counts = new Map(list.map((chat) => [chat.id, [chat['unread_count'], chat['mention_count']]]));
    expect(chats.map((chat) => counts.get(chat.id))).toEqual([
      [0, 0],
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  it('leaves the read state out (and uncounted) when `fields` does not ask for it', async () => {
    const ann = await registerUser(world.server);
    const chat = await createChat(ann, { name: 'Plain' });
    const plain = await ann.pb.collection('chats').getOne(chat.id, { fields: 'id,name,last_seq' });
    expect(plain).toEqual({ id: chat.id, name: 'Plain', last_seq: 0 });
    expect(await ann.pb.collection('chats').getOne(chat.id, { fields: 'id,unread_count' })).toEqual({ id: chat.id, unread_count: 0 });
  });
});
