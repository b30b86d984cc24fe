import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { TestSocket } from './support/wsClient';

/** POST /api/chats/{id}/leave (CONTRACTS "Invitations and onboarding"): the rules, the rows, the frames. */
const variants = await databaseVariants();

describe.each(variants)('leaving a chat ($name)', (variant) => {
  let testServer: TestServer;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
  });

  afterAll(async () => {
    await testServer?.close();
  });

  const leave = (user: RegisteredUser | undefined, chatId: string) =>
    rawRequest(testServer.url, 'POST', `/api/chats/${chatId}/leave`, user === undefined ? {} : { token: user.pb.authStore.token });

  async function membersOf(chatId: string): Promise<{ participants: string[]; admins: string[] }> {
    const participants = await testServer.probe.rows('select user_id from chat_participants where chat_id = $1', [chatId]);
    const admins = await testServer.probe.rows('select user_id from chat_admins where chat_id = $1', [chatId]);
    return { participants: participants.map((row) => String(row['user_id'])).sort(), admins: admins.map((row) => String(row['user_id'])).sort() };
  }

  async function signedInSocket(user: RegisteredUser): Promise<TestSocket> {
    const socket = await TestSocket.open(testServer.url);
    expect((await socket.authenticate(user.pb.authStore.token)).type).toBe('authSuccess');
    return socket;
  }

  it('takes a participant out: row gone, chat_removed to their sockets, chat_updated to everyone who stays', async () => {
    const owner = await registerUser(testServer);
    const leaver = await registerUser(testServer);
    const stayer = await registerUser(testServer);
    const chat = await createChat(owner, { name: 'Leave me', participants: [leaver.record.id, stayer.record.id] });
    const leaverSocket = await signedInSocket(leaver);
    const stayerSocket = await signedInSocket(stayer);
    try {
      leaverSocket.send({ type: 'join_chat', chat_id: chat.id });
      await leaverSocket.nextOfType('joined');

      const response = await leave(leaver, chat.id);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect((await membersOf(chat.id)).participants).toEqual([owner.record.id, stayer.record.id].sort());

      expect(await leaverSocket.nextOfType('chat_removed')).toEqual({ type: 'chat_removed', chat_id: chat.id });
      const updated = await stayerSocket.nextOfType('chat_updated');
      const seen = updated['chat'] as { id: string; participants: string[] };
      expect(seen.id).toBe(chat.id);
      expect(seen.participants).not.toContain(leaver.record.id);

      // The leaver's socket left the chat's room: messages posted after it do not reach it.
      await postMessage(owner, chat.id, 'after you left');
      expect(await leaverSocket.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);
      const hidden = await rawRequest(testServer.url, 'GET', `/api/collections/chats/records/${chat.id}`, { token: leaver.pb.authStore.token });
      expect(hidden.status).toBe(404);
      const again = await leave(leaver, chat.id);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ message: 'Chat not found' });
    } finally {
      await leaverSocket.close();
      await stayerSocket.close();
    }
  });

  it('lets an admin leave when another admin stays, and takes the admin role with it', async () => {
    const owner = await registerUser(testServer);
    const deputy = await registerUser(testServer);
    const chat = await createChat(owner, { name: 'Handover', participants: [deputy.record.id] });
    await owner.pb.collection('chats').update(chat.id, { 'admins+': deputy.record.id });
    expect((await leave(owner, chat.id)).status).toBe(204);
    expect(await membersOf(chat.id)).toEqual({ participants: [deputy.record.id], admins: [deputy.record.id] });
  });

  it('refuses the last admin while others stay, and the only participant, changing nothing', async () => {
    const owner = await registerUser(testServer);
    const member = await registerUser(testServer);
    const chat = await createChat(owner, { name: 'Stay', participants: [member.record.id] });
    const refused = await leave(owner, chat.id);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      status: 400,
      message: 'You are the last admin of this chat. Make another participant an admin before leaving.',
    });
    expect(await membersOf(chat.id)).toEqual({ participants: [owner.record.id, member.record.id].sort(), admins: [owner.record.id] });

    const alone = await createChat(owner, { name: 'Alone' });
    const only = await leave(owner, alone.id);
    expect(only.status).toBe(400);
    expect(only.body).toMatchObject({ message: 'You are the only participant. Delete the chat instead.' });
    expect(await membersOf(alone.id)).toEqual({ participants: [owner.record.id], admins: [owner.record.id] });
  });

  it('keeps one admin when two admins leave at once', async () => {
    const first = await registerUser(testServer);
    const second = await registerUser(testServer);
    const member = await registerUser(testServer);
    const chat = await createChat(first, { name: 'Race', participants: [second.record.id, member.record.id] });
    await first.pb.collection('chats').update(chat.id, { 'admins+': second.record.id });
    const statuses = (await Promise.all([leave(first, chat.id), leave(second, chat.id)])).map((response) => response.status).sort();
    expect(statuses).toEqual([204, 400]);
    expect((await membersOf(chat.id)).admins).toHaveLength(1);
  });

  it('answers 404 to non-participants and for unknown chats, 401 to guests', async () => {
    const owner = await registerUser(testServer);
    const outsider = await registerUser(testServer);
    const chat = await createChat(owner, { name: 'Members only', participants: [(await registerUser(testServer)).record.id] });
    const stranger = await leave(outsider, chat.id);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toMatchObject({ status: 404, message: 'Chat not found' });
    expect((await leave(outsider, 'abcdefghijklmno')).status).toBe(404);
    expect((await leave(undefined, chat.id)).status).toBe(401);
    expect((await membersOf(chat.id)).participants).toHaveLength(2);
  });
});
