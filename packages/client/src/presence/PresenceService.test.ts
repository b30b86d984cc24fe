import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfabClient } from '../client/ConfabClient';
import { connectedClient } from '../testing/connectedClient';
import { startFakeGateway, type FakeGateway } from '../testing/fakeGateway';
import { startFakeServer, type FakeServer } from '../testing/fakeServer';
import { settle, waitUntil } from '../testing/waitUntil';

const bobId = 'bob000000000001';
const carolId = 'carol0000000001';

describe('PresenceService (client.presence)', () => {
  let server: FakeServer;
  let gateway: FakeGateway;
  let client: ConfabClient;

  beforeEach(async () => {
    server = await startFakeServer();
    gateway = await startFakeGateway();
    client = await connectedClient(server, gateway, { presence: { typingIntervalMs: 200, typingExpiryMs: 150 } });
  });

  afterEach(async () => {
    client.logout();
    await gateway.close();
    await server.close();
  });

  const typingFrames = () => gateway.received.filter((frame) => frame.type === 'typing');
  const typists = (chatId: string) => client.store.getState().typists[chatId]?.map((typist) => typist.user_id) ?? [];
  const joinChat = async (chatId: string) => {
    client.realtime.join(chatId, 0);
    await waitUntil(() => gateway.received.some((frame) => frame.type === 'join_chat' && frame.chat_id === chatId), 'the join');
    await settle();
  };

  it('sends typing only in a joined chat, at most once per interval', async () => {
    expect(client.presence.typing('chat00000000001')).toBe(false);
    await joinChat('chat00000000001');
    expect(client.presence.typing('chat00000000001')).toBe(true);
    expect(client.presence.typing('chat00000000001')).toBe(false);
    await waitUntil(() => client.presence.typing('chat00000000001'), 'the interval to pass');
    await waitUntil(() => typingFrames().length === 2, 'two typing frames');
    expect(typingFrames()).toEqual([
      { type: 'typing', chat_id: 'chat00000000001' },
      { type: 'typing', chat_id: 'chat00000000001' },
    ]);
    client.realtime.leave('chat00000000001');
    await waitUntil(() => !client.presence.typing('chat00000000001'), 'the chat to be left');
  });

  it('lists who else types, clears a typist after the expiry, and at once when their message arrives', async () => {
    await joinChat('chat00000000001');
    gateway.push({ type: 'typing', chat_id: 'chat00000000001', user_id: bobId, username: 'bob', name: 'Bob' });
    gateway.push({ type: 'typing', chat_id: 'chat00000000001', user_id: carolId, username: 'carol', name: '' });
    // One's own typing (another tab) and a chat not joined are never shown.
    gateway.push({ type: 'typing', chat_id: 'chat00000000001', user_id: 'alice0000000001', username: 'alice', name: '' });
    gateway.push({ type: 'typing', chat_id: 'chat00000000002', user_id: bobId, username: 'bob', name: 'Bob' });
    await waitUntil(() => typists('chat00000000001').length === 2, 'two typists');
    expect(client.store.getState().typists['chat00000000001']).toEqual([
      { user_id: bobId, username: 'bob', name: 'Bob' },
      { user_id: carolId, username: 'carol', name: '' },
    ]);
    expect(typists('chat00000000002')).toEqual([]);
    gateway.append('chat00000000001', 'here it is', { authorId: bobId });
    await waitUntil(() => typists('chat00000000001').join() === carolId, 'bob to be cleared by his message');
    await waitUntil(() => typists('chat00000000001').length === 0, 'carol to expire');
    expect(client.store.getState().typists).toEqual({});
  });

  it('loads who of a chat is online, then follows presence frames', async () => {
    server.addChat({ id: 'chat00000000001', participants: ['alice0000000001', bobId, carolId] });
    server.backend.online.add(bobId);
    await client.chats.list();
    client.store.setState({ onlineUserIds: [carolId] });
    expect(await client.presence.loadChat('chat00000000001')).toEqual([bobId]);
    expect(client.store.getState().onlineUserIds).toEqual([bobId]);
    gateway.push({ type: 'presence', user_id: carolId, online: true });
    await waitUntil(() => client.store.getState().onlineUserIds.includes(carolId), 'carol online');
    gateway.push({ type: 'presence', user_id: bobId, online: false });
    await waitUntil(() => !client.store.getState().onlineUserIds.includes(bobId), 'bob offline');
    expect(client.store.getState().onlineUserIds).toEqual([carolId]);
  });
});
