import { describe, expect, it } from 'vitest';
import type { ChatPresenceAnswer } from '@confab/client/protocol';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { serverWithSockets } from './support/serverWithSockets';
import type { Frame } from './support/wsClient';

/**
 * Typing and presence (docs/CONTRACTS.md, Typing and presence) on the real server and both
 * databases: typing frames go to the chat's other joined sockets, throttled per person; strangers
 * and sockets that have not joined are refused; presence follows people's sockets.
 */
const variants = await databaseVariants();

describe.each(variants)('typing and presence ($name)', (variant) => {
  const world = serverWithSockets(variant);
  const { socketOf } = world;
  const typingIn = (chatId: string) => (frame: Frame) => frame.type === 'typing' && frame['chat_id'] === chatId;
  const presenceOf = (user: RegisteredUser, chatId: string, as?: RegisteredUser) =>
    rawRequest(world.server.url, 'GET', `/api/chats/${chatId}/presence`, as === undefined ? {} : { token: as.pb.authStore.token });

  it("sends who is typing to the chat's other joined sockets, never back to the typist", async () => {
    const ann = await registerUser(world.server, { name: 'Ann Example' });
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await socketOf(ann);
    const annOtherTab = await socketOf(ann);
    const bobSocket = await socketOf(bob);
    await Promise.all([annSocket.join(chat.id), annOtherTab.join(chat.id), bobSocket.join(chat.id)]);
    annSocket.send({ type: 'typing', chat_id: chat.id });
    expect(await bobSocket.next(typingIn(chat.id))).toEqual({ type: 'typing', chat_id: chat.id, user_id: ann.record.id, username: ann.username, name: 'Ann Example' });
    expect(await annSocket.collect(typingIn(chat.id), 300)).toEqual([]);
    expect(await annOtherTab.collect(typingIn(chat.id), 0)).toEqual([]);
  });

  it('drops a person’s further typing frames within the throttle window, and lets one through after they send', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await socketOf(ann);
    const bobSocket = await socketOf(bob);
    await Promise.all([annSocket.join(chat.id), bobSocket.join(chat.id)]);
    for (let index = 0; index < 20; index += 1) annSocket.send({ type: 'typing', chat_id: chat.id });
    expect(await bobSocket.collect(typingIn(chat.id), 500)).toHaveLength(1);
    // Dropped silently: no error frame for a throttled typing frame.
    expect(await annSocket.collect((frame) => frame.type === 'error', 0)).toEqual([]);
    annSocket.send({ type: 'send_message', chat_id: chat.id, content: 'done typing', client_id: 'sent-1' });
    await bobSocket.nextMessage(chat.id);
    annSocket.send({ type: 'typing', chat_id: chat.id });
    expect(await bobSocket.next(typingIn(chat.id))).toMatchObject({ user_id: ann.record.id });
  });

  it("refuses a stranger's typing frame with an error and broadcasts nothing; a participant must join first", async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const stranger = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobSocket = await socketOf(bob);
    await bobSocket.join(chat.id);
    const strangerSocket = await socketOf(stranger);
    strangerSocket.send({ type: 'typing', chat_id: chat.id });
    expect(await strangerSocket.nextOfType('error')).toMatchObject({ code: 'not_a_participant', ref: chat.id });
    const annSocket = await socketOf(ann);
    annSocket.send({ type: 'typing', chat_id: chat.id });
    expect(await annSocket.nextOfType('error')).toMatchObject({ code: 'invalid_frame', ref: chat.id });
    annSocket.send({ type: 'typing' });
    expect(await annSocket.nextOfType('error')).toMatchObject({ code: 'invalid_frame', message: 'chat_id must be a non-empty string' });
    expect(await bobSocket.collect(typingIn(chat.id), 300)).toEqual([]);
  });

  it('answers who of a chat is online to its participants, and tells them live when someone comes and goes', async () => {
    const ann = await registerUser(world.server);
    const bob = await registerUser(world.server);
    const stranger = await registerUser(world.server);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annSocket = await socketOf(ann);
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
    await eventually(async () => {
      const answer = await presenceOf(ann, chat.id, bob);
      expect(answer.status).toBe(200);
      expect(answer.body as ChatPresenceAnswer).toEqual({ chat_id: chat.id, online: [ann.record.id] });
    });
    const bobSocket = await socketOf(bob);
    expect(await annSocket.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.record.id)).toEqual({ type: 'presence', user_id: bob.record.id, online: true });
    // A second tab changes nothing for the others; closing one of two keeps Bob online.
    const bobOtherTab = await socketOf(bob);
    await bobOtherTab.close();
    await bobSocket.close();
    expect(await annSocket.next((frame) => frame.type === 'presence' && frame['user_id'] === bob.record.id)).toEqual({ type: 'presence', user_id: bob.record.id, online: false });
    expect(await annSocket.collect((frame) => frame.type === 'presence', 200)).toEqual([]);
    expect((await presenceOf(ann, chat.id, ann)).body).toEqual({ chat_id: chat.id, online: [ann.record.id] });
    expect((await presenceOf(ann, chat.id, stranger)).status).toBe(404);
    expect((await presenceOf(ann, chat.id)).status).toBe(401);
    // Nobody outside Bob's chats hears of him.
    expect(await (await socketOf(stranger)).collect((frame) => frame.type === 'presence', 0)).toEqual([]);
  });
});
