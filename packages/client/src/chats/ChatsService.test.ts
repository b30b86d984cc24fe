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
