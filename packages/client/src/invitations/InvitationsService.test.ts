import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { buildPendingInvitation } from '../testing/builders';
import { connectedClient } from '../testing/connectedClient';
import { startFakeGateway } from '../testing/fakeGateway';
import { errorResponse, json } from '../testing/fakeHttp';
import { alice, startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { waitUntil } from '../testing/waitUntil';
import { chatIdFromLocation } from './InvitationsService';

let server: FakeServer;
let client: ConfabClient;

/** Canned answers of the token routes these tests read (the tokens' rules are the real server's, tested there). */
function scriptTokenRoutes(fake: FakeServer): void {
  const { override } = fake.backend;
  override('GET /api/invitation/valid-token', () =>
    json(200, { id: 'inv1', chat_id: 'chat1', chat: { id: 'chat1', name: 'Launch' }, email: '', link_type: 'shareable', user_exists: false, expires_at: '2026-01-02 00:00:00.000Z' }),
  );
  override('GET /api/invitation/missing', () => errorResponse(404, 'Invalid or expired invitation'));
  override('GET /api/invitation/broken', () => errorResponse(500, 'Something broke.'));
  override('GET /api/accept-invitation/valid-token', () => new Response(null, { status: 302, headers: { Location: '/chat/chat1' } }));
  override('GET /api/accept-invitation/no-location', () => new Response(null, { status: 302 }));
  override('GET /api/accept-invitation/ok-json', () => json(200, { ok: true }));
  override('GET /api/accept-invitation/expired', () => errorResponse(400, 'Invalid or expired invitation'));
  override('POST /api/accept-invitation/valid-token', (_request, body) =>
    body['display_name'] !== undefined && body['username'] === undefined
      ? json(200, { success: true, temp_password: 'temp-pass', username: 'user_abcdefghij', chat_id: 'chat1' })
      : json(200, { success: true, username: body['username'], chat_id: 'chat1' }),
  );
  override('POST /api/invite-to-chat', (_request, body) => {
    if (body['username'] === 'ghost') return errorResponse(404, 'User not found');
    if (body['email'] !== undefined) return json(200, { success: true, status: 'invited', chat_id: body['chat_id'] });
    return json(200, { success: true, status: 'added', chat_id: body['chat_id'], user: { id: 'u2', username: body['username'], name: '' } });
  });
  override('POST /api/create-share-link/c1', (_request, body) => json(200, { share_url: 'http://confab.test/join/tok-c1', expires_at: 'later', max_uses: body['max_uses'] }));
  override('GET /api/search-users/bo', () => json(200, { users: [{ id: 'u2', username: 'bob', name: 'Bob' }] }));
}

beforeEach(async () => {
  server = await startFakeServer();
  scriptTokenRoutes(server);
  client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
});

afterEach(async () => {
  client.logout();
  await server.close();
});

const lastRequest = () => server.requests.at(-1);
const signIn = () => client.login('alice', 'correct-horse');

describe('invitations.get', () => {
  it('returns the invitation, null on 404, and rejects other failures', async () => {
    await expect(client.invitations.get('valid-token')).resolves.toMatchObject({ chat_id: 'chat1', link_type: 'shareable' });
    await expect(client.invitations.get('missing')).resolves.toBeNull();
    await expect(client.invitations.get('broken')).rejects.toMatchObject({ status: 500, message: 'Something broke.' });
  });
});

describe('invitations.acceptAsCurrentUser', () => {
  it('reads the chat id from the 302 Location, with the bearer token', async () => {
    await signIn();
    await expect(client.invitations.acceptAsCurrentUser('valid-token')).resolves.toEqual({ chatId: 'chat1' });
    expect(lastRequest()?.headers['authorization']).toMatch(/^Bearer /);
  });

  it('falls back to the known chat id, else "Invalid redirect response"', async () => {
    await signIn();
    await expect(client.invitations.acceptAsCurrentUser('no-location', 'chat9')).resolves.toEqual({ chatId: 'chat9' });
    await expect(client.invitations.acceptAsCurrentUser('no-location')).rejects.toMatchObject({ message: 'Invalid redirect response' });
    await expect(client.invitations.acceptAsCurrentUser('ok-json')).rejects.toMatchObject({ message: 'Invalid redirect response' });
  });

  it('treats an opaque redirect (browsers) as success', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), redirected: false, url: '' } as unknown as Response;
    const browserLike = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false }, fetch: async () => opaque });
    await expect(browserLike.invitations.acceptAsCurrentUser('t', 'chat7')).resolves.toEqual({ chatId: 'chat7' });
    const followed = { type: 'basic', status: 200, headers: new Headers(), redirected: true, url: 'http://x/chat/chat8' } as unknown as Response;
    const following = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false }, fetch: async () => followed });
    await expect(following.invitations.acceptAsCurrentUser('t')).resolves.toEqual({ chatId: 'chat8' });
  });

  it('rejects with the server message on an error', async () => {
    await signIn();
    await expect(client.invitations.acceptAsCurrentUser('expired')).rejects.toMatchObject({ status: 400, message: 'Invalid or expired invitation' });
  });

  it('extracts chat ids from locations', () => {
    expect(chatIdFromLocation('http://h/chat/abc?x=1')).toBe('abc');
    expect(chatIdFromLocation('/login')).toBeNull();
  });
});

describe('invitations.accept (POST)', () => {
  it('joins a share link with a trimmed display name', async () => {
    await expect(client.invitations.acceptShareable('valid-token', '  Ada  ')).resolves.toMatchObject({ temp_password: 'temp-pass', username: 'user_abcdefghij' });
    expect(lastRequest()?.body).toEqual({ display_name: 'Ada' });
  });

  it('joins an e-mail invitation, the display name defaulting to the username', async () => {
    await client.invitations.acceptEmail('valid-token', { username: ' ada ', password: 'secret1' });
    expect(lastRequest()?.body).toEqual({ username: 'ada', password: 'secret1', display_name: 'ada' });
  });
});

describe('invitations.inviteToChat, createShareLink, searchUsers', () => {
  it('sends a lower-cased e-mail or a username', async () => {
    await signIn();
    await expect(client.invitations.inviteToChat('c1', ' Bob@Example.COM ')).resolves.toMatchObject({ status: 'invited' });
    expect(lastRequest()?.body).toEqual({ chat_id: 'c1', email: 'bob@example.com' });
    await expect(client.invitations.inviteToChat('c1', 'bob')).resolves.toMatchObject({ status: 'added' });
    expect(lastRequest()?.body).toEqual({ chat_id: 'c1', username: 'bob' });
    await expect(client.invitations.inviteToChat('c1', 'ghost')).rejects.toMatchObject({ status: 404 });
    const count = server.requests.length;
    await expect(client.invitations.inviteToChat('c1', '  ')).rejects.toMatchObject({ message: 'Please enter an email address or username' });
    expect(server.requests).toHaveLength(count);
  });

  it('creates a share link with the spec defaults', async () => {
    await signIn();
    await expect(client.invitations.createShareLink('c1')).resolves.toMatchObject({ share_url: 'http://confab.test/join/tok-c1' });
    expect(lastRequest()?.body).toEqual({ expires_in_hours: 24, max_uses: 50 });
  });

  it('searches users from 2 characters', async () => {
    await signIn();
    const count = server.requests.length;
    await expect(client.invitations.searchUsers('b')).resolves.toEqual([]);
    expect(server.requests).toHaveLength(count);
    await expect(client.invitations.searchUsers('bo')).resolves.toEqual([{ id: 'u2', username: 'bob', name: 'Bob' }]);
    expect(lastRequest()?.path).toBe('/api/search-users/bo');
  });
});

describe('the signed-in user\'s pending invitations', () => {
  const launch = buildPendingInvitation({ id: 'invitation00001', chat: { id: 'launch', name: 'Launch' } });
  const design = buildPendingInvitation({ id: 'invitation00002', chat: { id: 'design', name: 'Design' }, invited_by: null });

  it('lists them into the store, with loading and error states', async () => {
    server.backend.addInvitation({ ...launch, invitee: alice.id });
    server.backend.addInvitation({ ...design, invitee: alice.id });
    await signIn();
    const loading = client.invitations.listPending();
    expect(client.store.getState()).toMatchObject({ invitationsLoading: true, invitationsError: null });
    await expect(loading).resolves.toEqual([launch, design]);
    expect(client.store.getState()).toMatchObject({ invitations: [launch, design], invitationsLoading: false });
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/api/my-invitations' });

    client.logout();
    expect(client.store.getState().invitations).toEqual([]);
    await expect(client.invitations.listPending()).rejects.toMatchObject({ status: 401 });
    expect(client.store.getState()).toMatchObject({ invitationsLoading: false, invitationsError: 'Missing or invalid authentication.' });
  });

  it('accepts one: it leaves the list, the chat enters the chat list, and the chat id comes back', async () => {
    server.backend.addInvitation({ ...launch, invitee: alice.id });
    server.backend.addInvitation({ ...design, invitee: alice.id });
    server.addChat({ id: 'launch', name: 'Launch', participants: ['bob000000000001', 'alice0000000001'] });
    await signIn();
    await client.invitations.listPending();
    await expect(client.invitations.acceptPending(launch.id)).resolves.toEqual({ chatId: 'launch' });
    expect(server.requests.some((request) => request.method === 'POST' && request.path === `/api/my-invitations/${launch.id}/accept`)).toBe(true);
    expect(client.store.getState().invitations).toEqual([design]);
    expect(client.store.getState().chats.map((chat) => chat.id)).toEqual(['launch']);
  });

  it('declines one, and rejects with the server message for an unknown one', async () => {
    server.backend.addInvitation({ ...launch, invitee: alice.id });
    await signIn();
    await client.invitations.listPending();
    await client.invitations.declinePending(launch.id);
    expect(lastRequest()).toMatchObject({ method: 'POST', path: `/api/my-invitations/${launch.id}/decline` });
    expect(client.store.getState().invitations).toEqual([]);
    await expect(client.invitations.acceptPending('nope')).rejects.toMatchObject({ status: 404, message: 'Invitation not found' });
  });

  it('loads the list again on an invitations_changed frame and after a reconnect', async () => {
    const gateway = await startFakeGateway();
    const live = await connectedClient(server, gateway, { realtime: { reconnectBaseDelayMs: 10 } });
    try {
      await live.invitations.listPending();
      expect(live.store.getState().invitations).toEqual([]);
      server.backend.addInvitation({ ...launch, invitee: alice.id });
      gateway.push({ type: 'invitations_changed' });
      await waitUntil(() => live.store.getState().invitations.length === 1, 'the list to load again');
      server.backend.addInvitation({ ...design, invitee: alice.id });
      gateway.dropAll();
      await waitUntil(() => live.store.getState().invitations.length === 2, 'the list to load after the reconnect');
    } finally {
      live.logout();
      await gateway.close();
    }
  });

  it('does not load a list nobody asked for', async () => {
    const gateway = await startFakeGateway();
    const live = await connectedClient(server, gateway);
    try {
      gateway.push({ type: 'invitations_changed' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requests.some((request) => request.path === '/api/my-invitations')).toBe(false);
    } finally {
      live.logout();
      await gateway.close();
    }
  });
});
