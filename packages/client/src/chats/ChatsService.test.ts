import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { ConfabError } from '../errors';
import { buildChat } from '../testing/builders';
import { connectedClient, seedMessages } from '../testing/connectedClient';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { waitUntil } from '../testing/waitUntil';

const alice = 'alice0000000001';
const bob = 'bob000000000001';
let server: FakeServer;
let gateway: FakeGateway;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  gateway = await startFakeGateway();
  server.users.push({ id: bob, username: 'bob', email: 'bob@example.com', name: '', password: 'bob-password' });
  server.addChat({ id: 'older', name: 'Older', participants: [alice], updated: '2026-01-01 00:00:00.000Z' });
  server.addChat({ id: 'newer', name: 'Newer', participants: [alice, bob], updated: '2026-01-02 00:00:00.000Z' });
  server.addChat({ id: 'bobs', name: 'Not mine', participants: [bob] });
  client = await connectedClient(server, gateway);
});

afterEach(async () => {
  client.logout();
  await gateway.close();
  await server.close();
});

const state = () => client.store.getState();
const lastRequest = () => server.requests.at(-1);

describe('chats.list', () => {
  it('lists the chats with members expanded, newest first, into the store', async () => {
    const loading = client.chats.list();
    expect(state().chatsLoading).toBe(true);
    const chats = await loading;
    expect(chats.map((chat) => chat.id)).toEqual(['newer', 'older']);
    expect(state()).toMatchObject({ chatsLoading: false, chatsError: null });
    expect(state().chats).toBe(chats);
    expect(chats[0]?.expand?.participants?.map((user) => user.username)).toEqual(['alice', 'bob']);
    const query = new URL(lastRequest()?.path ?? '', server.url).searchParams;
    expect({ expand: query.get('expand'), sort: query.get('sort'), perPage: query.get('perPage') }).toEqual({
      expand: 'participants,admins',
      sort: '-updated',
      perPage: '500',
    });
  });

  it('records the failure in chatsError', async () => {
    const signedOut = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
    await expect(signedOut.chats.list()).rejects.toBeInstanceOf(ConfabError);
    expect(signedOut.store.getState()).toMatchObject({ chatsLoading: false, chatsError: 'The request requires valid record authorization token.' });
  });
});

describe('chats changes', () => {
  beforeEach(async () => {
    await client.chats.list();
  });

  it('creates a chat with the caller as creator, participant and admin, on top of the list', async () => {
    const chat = await client.chats.create({ name: '  Launch  ', description: 'Plans' });
    expect(lastRequest()?.body).toEqual({ name: 'Launch', description: 'Plans', creator: alice, participants: [alice], admins: [alice] });
    expect(chat).toMatchObject({ name: 'Launch', admins: [alice] });
    expect(state().chats[0]?.id).toBe(chat.id);
    const requests = server.requests.length;
    await expect(client.chats.create({ name: '   ' })).rejects.toMatchObject({ message: 'Please enter a chat name', status: 400 });
    expect(server.requests).toHaveLength(requests);
  });

  it('updates, promotes, demotes, adds and removes members with modifiers, keeping currentChat fresh', async () => {
    await client.messages.open('newer');
    expect(state().isCurrentUserAdmin).toBe(true);
    await client.chats.update('newer', { name: ' Renamed ', description: 'About' });
    expect(lastRequest()?.body).toEqual({ name: 'Renamed', description: 'About' });
    expect(state().currentChat?.name).toBe('Renamed');
    expect(state().chats[0]?.name).toBe('Renamed');

    expect((await client.chats.promote('newer', bob)).admins).toEqual([alice, bob]);
    expect(lastRequest()?.body).toEqual({ 'admins+': bob });
    expect((await client.chats.demote('newer', bob)).admins).toEqual([alice]);
    expect(lastRequest()?.body).toEqual({ 'admins-': bob });
    expect((await client.chats.removeParticipant('newer', bob)).participants).toEqual([alice]);
    expect(lastRequest()?.body).toEqual({ 'participants-': bob });
    expect((await client.chats.addParticipant('newer', bob)).participants).toEqual([alice, bob]);
    expect(lastRequest()?.body).toEqual({ 'participants+': bob });
    expect(state().currentChat?.participants).toEqual([alice, bob]);
  });

  it('stores agent permissions and auto-routing', async () => {
    await client.chats.setAgentPermissions('newer', { confab_agents: false, developer_agents: true });
    expect(lastRequest()?.body).toEqual({ agent_permissions: { confab_agents: false, developer_agents: true } });
    await client.chats.setAutoRouteEnabled('newer', true);
    expect(lastRequest()?.body).toEqual({ auto_route_enabled: true });
    const chat = await client.chats.setAutoRouteAgent('newer', 'deep');
    expect(lastRequest()?.body).toEqual({ auto_route_agent: 'deep' });
    expect(chat).toMatchObject({ auto_route_enabled: true, auto_route_agent: 'deep', agent_permissions: { confab_agents: false } });
  });

  it('deletes a chat and closes it when it is open', async () => {
    seedMessages(server, gateway, 'newer', 2);
    await client.messages.open('newer');
    expect(state().messages).toHaveLength(2);
    await client.chats.remove('newer');
    expect(lastRequest()?.method).toBe('DELETE');
    expect(state()).toMatchObject({ currentChat: null, messages: [], isCurrentUserAdmin: false });
    expect(state().chats.map((chat) => chat.id)).toEqual(['older']);
    await expect(client.chats.remove('bobs')).rejects.toMatchObject({ status: 404 });
  });
});

describe('chats.leave and chats.include', () => {
  beforeEach(async () => {
    await client.chats.list();
  });

  it('leaves through POST /api/chats/{id}/leave: the chat leaves the list and, when open, closes', async () => {
    seedMessages(server, gateway, 'newer', 2);
    await client.messages.open('newer');
    await client.chats.leave('newer');
    expect(lastRequest()).toMatchObject({ method: 'POST', path: '/api/chats/newer/leave' });
    expect(state().chats.map((chat) => chat.id)).toEqual(['older']);
    expect(state()).toMatchObject({ currentChat: null, messages: [] });
  });

  it('rejects with the server message and keeps the chat', async () => {
    await expect(client.chats.leave('bobs')).rejects.toMatchObject({ status: 404, message: 'Chat not found' });
    expect(state().chats.map((chat) => chat.id)).toEqual(['newer', 'older']);
  });

  it('includes a chat just joined in the list', async () => {
    server.backend.chats.find((chat) => chat.id === 'bobs')?.participants.push(alice);
    await client.chats.include('bobs');
    expect(state().chats.map((chat) => chat.id)).toContain('bobs');
  });
});

describe('chat-list events', () => {
  beforeEach(async () => {
    await client.chats.list();
    await client.messages.open('newer');
  });

  it('adds and updates chats; the current chat and isCurrentUserAdmin follow', async () => {
    gateway.push({ type: 'chat_added', chat: buildChat({ id: 'added', name: 'Added', updated: '2026-03-01 00:00:00.000Z' }) });
    await waitUntil(() => state().chats.length === 3, 'chat_added');
    expect(state().chats[0]?.id).toBe('added');

    const demoted = { ...(state().currentChat ?? buildChat()), admins: [bob], name: 'Bob runs it now' };
    gateway.push({ type: 'chat_updated', chat: demoted });
    await waitUntil(() => state().currentChat?.name === 'Bob runs it now', 'chat_updated');
    expect(state().isCurrentUserAdmin).toBe(false);
    expect(state().chats.find((chat) => chat.id === 'newer')?.name).toBe('Bob runs it now');
  });

  it('removes chats, clearing the current one', async () => {
    gateway.push({ type: 'chat_deleted', chat_id: 'older' });
    await waitUntil(() => state().chats.length === 1, 'chat_deleted');
    expect(state().currentChat?.id).toBe('newer');
    gateway.push({ type: 'chat_removed', chat_id: 'newer' });
    await waitUntil(() => state().chats.length === 0, 'chat_removed');
    expect(state()).toMatchObject({ currentChat: null, messages: [] });
    expect(client.realtime.lastSeq('newer')).toBeUndefined();
  });
});

describe('unread state', () => {
  const older = () => state().chats.find((chat) => chat.id === 'older');

  beforeEach(async () => {
    server.backend.chats.find((chat) => chat.id === 'older')!.last_read = { [alice]: 0 };
    server.backend.addMessages('older', 2, [bob], (index) => (index === 1 ? 'ping @alice' : 'hello'));
    await client.chats.list();
  });

  it('lists each chat with the counts the server answers', () => {
    expect(older()).toMatchObject({ last_seq: 2, last_read_seq: 0, unread_count: 2, mention_count: 1, muted: false });
    expect(state().chats.find((chat) => chat.id === 'newer')).toMatchObject({ unread_count: 0, mention_count: 0 });
  });

  it("follows chat_activity: others' messages count and lift the chat to the top, mine move my position", async () => {
    expect(state().chats.map((chat) => chat.id)).toEqual(['newer', 'older']);
    gateway.push({ type: 'chat_activity', chat_id: 'older', seq: 3, author_id: bob, updated: '2026-05-01 00:00:00.000Z', mentions_you: true });
    await waitUntil(() => older()?.unread_count === 3, 'chat_activity');
    expect(older()).toMatchObject({ last_seq: 3, mention_count: 2, updated: '2026-05-01 00:00:00.000Z' });
    expect(state().chats.map((chat) => chat.id)).toEqual(['older', 'newer']);
    // A repeated or older frame changes nothing.
    gateway.push({ type: 'chat_activity', chat_id: 'older', seq: 3, author_id: bob, updated: '2026-05-01 00:00:00.000Z', mentions_you: true });
    gateway.push({ type: 'chat_activity', chat_id: 'older', seq: 4, author_id: alice, updated: '2026-05-02 00:00:00.000Z', mentions_you: false });
    await waitUntil(() => older()?.last_seq === 4, 'my own activity');
    expect(older()).toMatchObject({ last_read_seq: 4, unread_count: 0, mention_count: 0 });
  });

  it('takes read_state as the server says it, never moving the position back', async () => {
    gateway.push({ type: 'read_state', chat_id: 'older', last_read_seq: 1, unread_count: 1, mention_count: 1, muted: true });
    await waitUntil(() => older()?.last_read_seq === 1, 'read_state');
    expect(older()).toMatchObject({ unread_count: 1, mention_count: 1, muted: true });
    gateway.push({ type: 'read_state', chat_id: 'older', last_read_seq: 0, unread_count: 2, mention_count: 1, muted: false });
    gateway.push({ type: 'read_state', chat_id: 'older', last_read_seq: 2, unread_count: 0, mention_count: 0, muted: false });
    await waitUntil(() => older()?.last_read_seq === 2, 'newer read_state');
    expect(older()).toMatchObject({ unread_count: 0, muted: false });
  });

  it('keeps the counts when a chat_updated (the same for every member) carries none', async () => {
    const { unread_count: _unread, mention_count: _mentions, last_read_seq: _position, muted: _muted, ...shared } = older()!;
    gateway.push({ type: 'chat_updated', chat: { ...shared, name: 'Renamed' } });
    await waitUntil(() => older()?.name === 'Renamed', 'chat_updated');
    expect(older()).toMatchObject({ unread_count: 2, mention_count: 1, last_read_seq: 0 });
  });

  it('marks read over the socket when connected, at once in the store, and only forward', async () => {
    await client.chats.markRead('older', 1);
    expect(older()).toMatchObject({ last_read_seq: 1, unread_count: 1, mention_count: 1 });
    await waitUntil(() => gateway.received.some((frame) => frame.type === 'mark_read'), 'mark_read');
    expect(gateway.received.filter((frame) => frame.type === 'mark_read')).toEqual([{ type: 'mark_read', chat_id: 'older', seq: 1 }]);
    await client.chats.markRead('older', 1);
    await client.chats.markRead('older', 2);
    expect(older()).toMatchObject({ last_read_seq: 2, unread_count: 0, mention_count: 0 });
    await waitUntil(() => gateway.received.filter((frame) => frame.type === 'mark_read').length === 2, 'second mark_read');
    expect(server.requests.some((request) => request.path.includes('/read'))).toBe(false);
  });

  it('marks read over HTTP without a socket, and mutes', async () => {
    await gateway.stop();
    await waitUntil(() => client.realtime.state !== 'connected', 'disconnected');
    await client.chats.markRead('older', 2);
    expect(server.backend.chats.find((chat) => chat.id === 'older')?.last_read?.[alice]).toBe(2);
    expect(older()).toMatchObject({ last_read_seq: 2, unread_count: 0 });
    await expect(client.chats.setMuted('older', true)).resolves.toMatchObject({ chat_id: 'older', muted: true });
    expect(older()?.muted).toBe(true);
    await gateway.restart();
  });
});
