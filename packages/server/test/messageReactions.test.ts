import { describe, expect, it } from 'vitest';
import { reactionTexts, type ReactionsAnswer } from '@confab/client/protocol';
import { agentSocket, createAgent } from './support/agents';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { serverWithSockets } from './support/serverWithSockets';

/**
 * Reactions (docs/CONTRACTS.md, Reactions) on the real server and both databases: the endpoints
 * and frames, their refusals, exact summaries under concurrent clicks, and what a client that was
 * away finds (replay and `updated >` both carry reactions).
 */
const variants = await databaseVariants();

describe.each(variants)('reactions ($name)', (variant) => {
  const world = serverWithSockets(variant);
  const { socketOf } = world;
  const reactionPath = (messageId: string, emoji: string) => `/api/messages/${messageId}/reactions/${encodeURIComponent(emoji)}`;
  const react = (user: RegisteredUser | undefined, method: 'PUT' | 'DELETE', messageId: string, emoji: string) =>
    rawRequest(world.server.url, method, reactionPath(messageId, emoji), user === undefined ? {} : { token: user.pb.authStore.token });
  const names = (answer: unknown) => (answer as ReactionsAnswer).reactions.map((reaction) => [reaction.emoji, reaction.count, reaction.users.map((user) => user.username)]);

  async function team() {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const eve = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const message = await postMessage(ann, chat.id, 'Ship it on Friday?');
    return { ann, bob, eve, chat, message };
  }

  it('adds and removes reactions over HTTP, idempotently, and tells joined sockets the whole summary', async () => {
    const { ann, bob, chat, message } = await team();
    const annSocket = await socketOf(ann);
    await annSocket.join(chat.id);

    const added = await react(bob, 'PUT', message.id, '👍');
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ chat_id: chat.id, message_id: message.id, version: 1 });
    expect(names(added.body)).toEqual([['👍', 1, [bob.record['username']]]]);
    expect(await annSocket.nextOfType('reactions_changed')).toMatchObject({ message_id: message.id, version: 1, reactions: [{ emoji: '👍', count: 1 }] });

    // Adding again changes nothing: same version, nothing broadcast.
    const again = await react(bob, 'PUT', message.id, '👍');
    expect(again.body).toMatchObject({ version: 1 });
    await react(ann, 'PUT', message.id, '👍');
    await react(ann, 'PUT', message.id, '🎉');
    const frame = await annSocket.nextOfType('reactions_changed');
    expect(frame['version']).toBe(2);
    expect(names(await annSocket.nextOfType('reactions_changed'))).toEqual([
      ['👍', 2, [bob.record['username'], ann.record['username']]],
      ['🎉', 1, [ann.record['username']]],
    ]);

    const removed = await react(bob, 'DELETE', message.id, '👍');
    expect(removed.body).toMatchObject({ version: 4 });
    expect(names(removed.body)).toEqual([
      ['👍', 1, [ann.record['username']]],
      ['🎉', 1, [ann.record['username']]],
    ]);
    expect((await react(bob, 'DELETE', message.id, '👍')).body).toMatchObject({ version: 4 });
  });

  it('refuses what is not one emoji, a 21st emoji, deleted messages, strangers and guests', async () => {
    const { ann, bob, eve, message } = await team();
    for (const bad of ['a', '👍👍', 'ok 👍', ' ']) {
      const refused = await react(bob, 'PUT', message.id, bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.body).toMatchObject({ message: reactionTexts.notOneEmoji, data: { emoji: { code: 'validation_invalid_value' } } });
    }
    const twenty = ['😀', '😃', '😄', '😁', '😆', '😅', '😂', '🤣', '😊', '😇', '🙂', '🙃', '😉', '😌', '😍', '🥰', '😘', '😗', '😙', '😚'];
    for (const emoji of twenty) expect((await react(bob, 'PUT', message.id, emoji)).status).toBe(200);
    const tooMany = await react(ann, 'PUT', message.id, '🤔');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ message: reactionTexts.tooMany });
    // One already there may still be added by someone else.
    expect((await react(ann, 'PUT', message.id, '😀')).status).toBe(200);

    expect((await react(eve, 'PUT', message.id, '👍')).status).toBe(404);
    expect((await react(undefined, 'PUT', message.id, '👍')).status).toBe(401);
    expect((await react(bob, 'PUT', 'nosuchmessage00', '👍')).status).toBe(404);
    await ann.pb.collection('messages').delete(message.id);
    expect((await react(bob, 'PUT', message.id, '👍')).status).toBe(404);
    expect((await ann.pb.collection('messages').getOne(message.id))['reactions']).toEqual([]);
  });

  it('converges to the exact summary under concurrent clicks, versions strictly increasing', async () => {
    const { ann, bob, chat, message } = await team();
    const people = [ann, bob, ...(await Promise.all([1, 2, 3].map(() => registerUser(world.server))))];
    await ann.pb.collection('chats').update(chat.id, { 'participants+': people.slice(2).map((person) => person.record.id) });
    const watcher = await socketOf(ann);
    await watcher.join(chat.id);
    // Every person adds 👍 and ❤️ and removes ❤️ again, all at once.
    await Promise.all(
      people.flatMap((person) => [
        react(person, 'PUT', message.id, '👍'),
        react(person, 'PUT', message.id, '❤️').then(() => react(person, 'DELETE', message.id, '❤️')),
      ]),
    );
    const record = await ann.pb.collection('messages').getOne(message.id);
    expect(record['reactions']).toEqual([{ emoji: '👍', count: 5, users: expect.any(Array) }]);
    expect(record['reactions_version']).toBe(15);
    const versions: number[] = [];
    for (let index = 0; index < 15; index += 1) versions.push(Number((await watcher.nextOfType('reactions_changed'))['version']));
    expect(versions).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
  });

  it('reacts over the socket, with refusals naming the message', async () => {
    const { ann, bob, eve, chat, message } = await team();
    const annSocket = await socketOf(ann);
    const bobSocket = await socketOf(bob);
    await annSocket.join(chat.id);
    bobSocket.send({ type: 'add_reaction', message_id: message.id, emoji: '👀' });
    // Bob has not joined: his own answer comes back to him; Ann's joined socket gets it too.
    expect(await bobSocket.nextOfType('reactions_changed')).toMatchObject({ message_id: message.id, reactions: [{ emoji: '👀', count: 1 }] });
    expect(await annSocket.nextOfType('reactions_changed')).toMatchObject({ version: 1 });
    bobSocket.send({ type: 'add_reaction', message_id: message.id, emoji: 'x' });
    expect(await bobSocket.nextOfType('error')).toMatchObject({ code: 'invalid_reaction', message: reactionTexts.notOneEmoji, ref: message.id });
    bobSocket.send({ type: 'remove_reaction', message_id: message.id });
    expect(await bobSocket.nextOfType('error')).toMatchObject({ code: 'invalid_frame', ref: message.id });
    const eveSocket = await socketOf(eve);
    eveSocket.send({ type: 'add_reaction', message_id: message.id, emoji: '👀' });
    expect(await eveSocket.nextOfType('error')).toMatchObject({ code: 'not_allowed', ref: message.id });
    bobSocket.send({ type: 'remove_reaction', message_id: message.id, emoji: '👀' });
    expect(await annSocket.nextOfType('reactions_changed')).toMatchObject({ version: 2, reactions: [] });
  });

  it('lets an agent react where it may post, and not elsewhere', async () => {
    const { ann, chat, message } = await team();
    const { api_key: apiKey } = await createAgent(world.server.url, ann);
    const { socket, answer } = await agentSocket(world.server.url, apiKey);
    world.closeAfterAll(socket);
    const devRoom = String((answer['agent'] as { dev_room_id: string }).dev_room_id);
    const inDevRoom = await postMessage(ann, devRoom, 'hello agent');
    socket.send({ type: 'add_reaction', message_id: inDevRoom.id, emoji: '👀' });
    expect(await socket.nextOfType('reactions_changed')).toMatchObject({ message_id: inDevRoom.id, reactions: [{ emoji: '👀', count: 1 }] });
    socket.send({ type: 'add_reaction', message_id: message.id, emoji: '👀' });
    expect(await socket.nextOfType('error')).toMatchObject({ code: 'not_invoked', ref: message.id });
    expect((await ann.pb.collection('messages').getOne(message.id))['reactions']).toEqual([]);
    expect(chat.id).not.toBe(devRoom);
  });

  it('gives a client that was away the reactions: in the replay, and by `updated >` with `fields`', async () => {
    const { ann, bob, chat, message } = await team();
    const since = String(message['updated']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await react(bob, 'PUT', message.id, '🚀');

    const away = await socketOf(ann);
    const { replayed } = await away.join(chat.id, 0);
    expect(replayed[0]).toMatchObject({ message_id: message.id, reactions_version: 1, reactions: [{ emoji: '🚀', count: 1, users: [{ id: bob.record.id }] }] });

    const changed = await ann.pb.collection('messages').getFullList({ filter: ann.pb.filter('chat = {:chat} && updated > {:since}', { chat: chat.id, since }) });
    expect(changed.map((record) => [record.id, record['reactions_version']])).toEqual([[message.id, 1]]);
    expect(changed[0]?.['reactions']).toMatchObject([{ emoji: '🚀', count: 1 }]);
    const narrow = await ann.pb.collection('messages').getOne(message.id, { fields: 'id,content' });
    expect(narrow).toEqual({ id: message.id, content: 'Ship it on Friday?' });
  });
});
