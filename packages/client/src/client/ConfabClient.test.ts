import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import PocketBase, { BaseAuthStore, ClientResponseError, LocalAuthStore, RecordService } from 'pocketbase';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfabError } from '../errors';
import { errorResponse, json } from '../testing/fakeHttp';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { failureMessage, forgotPasswordErrorMessage, loginErrorMessage, registerErrorMessage, resetPasswordErrorMessage } from '../validation/serverErrors';
import { ConfabClient } from './ConfabClient';

let server: FakeServer;

beforeEach(async () => {
  server = await startFakeServer();
  // Two product routes of the tests' own: one that shows the Authorization header it got, one that answers 404.
  server.backend.override('GET /api/echo-auth', (request) => json(200, { authorization: request.headers.get('Authorization') }));
  server.backend.override('GET /api/invitation/missing', () => errorResponse(404, 'Invalid or expired invitation'));
  server.backend.resetTokens.add('valid-reset-token');
});

afterEach(async () => {
  await server.close();
});

/** A port nothing listens on: bind port 0, note it, release it. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('ConfabClient.loadConfig', () => {
  it('reads GET /api/config', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    expect(await client.loadConfig()).toEqual({
      api_base_url: 'http://confab.test',
      websocket_url: 'ws://confab.test/api/ws',
      environment: 'test',
      public_domain: 'confab.test',
    });
  });

  it('keeps a served mail_domain, a compatible addition', async () => {
    server.configAnswer = {
      status: 200,
      body: { api_base_url: 'https://api.confab.test', websocket_url: 'wss://api.confab.test/api/ws', environment: 'test', public_domain: 'confab.test', mail_domain: 'mail.confab.test' },
    };
    const client = new ConfabClient({ baseUrl: server.url });
    expect((await client.loadConfig()).mail_domain).toBe('mail.confab.test');
  });

  it('falls back to host-derived values when the call fails', async () => {
    server.configAnswer = { status: 500, body: { message: 'boom' } };
    const host = new URL(server.url).host;
    const client = new ConfabClient({ baseUrl: server.url });
    expect(await client.loadConfig()).toEqual({
      api_base_url: `http://${host}`,
      websocket_url: `ws://${host}/api/ws`,
      environment: 'development',
      public_domain: host,
    });
  });

  it('falls back when the server is unreachable, and fills fields the answer lacks', async () => {
    const unreachable = await closedPortUrl();
    const offline = new ConfabClient({ baseUrl: unreachable });
    expect((await offline.loadConfig()).websocket_url).toBe(`ws://${new URL(unreachable).host}/api/ws`);

    server.configAnswer = { status: 200, body: { environment: 'staging' } };
    const partial = new ConfabClient({ baseUrl: server.url });
    const config = await partial.loadConfig();
    expect(config.environment).toBe('staging');
    expect(config.api_base_url).toBe(server.url);
  });
});

describe('ConfabClient auth', () => {
  it('logs in by username or e-mail and fills the store', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    const user = await client.login('alice', 'correct-horse');
    expect(user.username).toBe('alice');
    expect(client.store.getState()).toMatchObject({ isAuthenticated: true, user: { username: 'alice' } });
    expect(client.requireUser().id).toBe('alice0000000001');

    const byEmail = new ConfabClient({ baseUrl: server.url });
    expect((await byEmail.login('alice@example.com', 'correct-horse')).username).toBe('alice');
    const loginRequest = server.requests.find((request) => request.path.endsWith('/auth-with-password'));
    expect(loginRequest?.body).toEqual({ identity: 'alice', password: 'correct-horse' });
  });

  it('rejects a bad login with a ConfabError carrying the server message', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    const error: unknown = await client.login('alice', 'wrong').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfabError);
    expect((error as ConfabError).status).toBe(400);
    expect(loginErrorMessage(error)).toBe('Failed to authenticate.');
    expect(client.store.getState().isAuthenticated).toBe(false);
  });

  it('says which server cannot be reached when a request gets no answer, on every screen’s text', async () => {
    // fetch rejects alike for a server that is down and for an answer the browser refused (CORS).
    const unreachable = await closedPortUrl();
    const client = new ConfabClient({ baseUrl: unreachable });
    const expected = `Cannot reach the Confab server at ${unreachable} — is this site's origin in CONFAB_ALLOWED_ORIGINS?`;
    const loginError: unknown = await client.login('alice', 'correct-horse').catch((caught: unknown) => caught);
    expect(loginError).toMatchObject({ status: 0, isNetworkFailure: true, isAbort: false });
    expect(loginErrorMessage(loginError)).toBe(expected);
    const registerError: unknown = await client.register({ email: 'bob@example.com', username: 'bob', password: 'longenough', passwordConfirm: 'longenough' }).catch((caught: unknown) => caught);
    expect(registerErrorMessage(registerError)).toBe(expected);
    expect(forgotPasswordErrorMessage(await client.requestPasswordReset('alice@example.com').catch((caught: unknown) => caught))).toBe(expected);
    // Product endpoints (client.request) and record calls made through client.pb directly.
    expect(failureMessage(await client.request('/api/invitation/missing').catch((caught: unknown) => caught), 'Failed to invite user')).toBe(expected);
    expect(failureMessage(await client.pb.collection('chats').getList().catch((caught: unknown) => caught), 'Failed to load chats.')).toBe(expected);
  });

  it('keeps the spec’s texts for answers the server gave', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    server.backend.override('POST /api/collections/users/auth-with-password', () => json(500, {}));
    const refused: unknown = await client.login('alice', 'correct-horse').catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ status: 500, isNetworkFailure: false });
    expect(loginErrorMessage(refused)).toBe('Login failed. Please try again.');
    expect(failureMessage(await client.request('/api/invitation/missing').catch((caught: unknown) => caught), 'Failed')).toBe('Invalid or expired invitation');
    // An aborted request is no network failure either: screens ignore it.
    const controller = new AbortController();
    controller.abort();
    const aborted: unknown = await client.request('/api/echo-auth', { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(aborted).toMatchObject({ isAbort: true, isNetworkFailure: false });
  });

  it('registers: creates the users record, then logs in', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    const user = await client.register({
      email: 'bob@example.com',
      username: 'bob',
      password: 'longenough',
      passwordConfirm: 'longenough',
      source: 'main-landing',
      userType: 'mixed',
    });
    expect(user.username).toBe('bob');
    expect(client.store.getState()).toMatchObject({ isAuthenticated: true, user: { username: 'bob' } });
    const createRequest = server.requests.find((request) => request.path === '/api/collections/users/records');
    expect(createRequest?.body).toEqual({
      email: 'bob@example.com',
      username: 'bob',
      password: 'longenough',
      passwordConfirm: 'longenough',
      type: 'user',
      source: 'main-landing',
      user_type: 'mixed',
    });
  });

  it('reports registration field errors in the spec format', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    const error = await client
      .register({ email: 'a2@example.com', username: 'alice', password: 'longenough', passwordConfirm: 'different' })
      .catch((caught: unknown) => caught);
    expect(registerErrorMessage(error)).toBe(
      "Username: The username is invalid or already in use. Password: Values don't match",
    );
    expect(server.requests.some((request) => request.path.endsWith('/auth-with-password'))).toBe(false);
  });

  it('logs out: clears the session and the state', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    await client.login('alice', 'correct-horse');
    client.store.actions.setSidebarOpen(true);
    client.logout();
    expect(client.pb.authStore.token).toBe('');
    expect(client.store.getState()).toMatchObject({ isAuthenticated: false, user: null, sidebarOpen: false });
    expect(() => client.requireUser()).toThrow('User not authenticated');
    try {
      client.requireUser();
    } catch (error) {
      expect((error as ConfabError).status).toBe(401);
    }
  });

  it('keeps the store in step with changes made directly on the auth store', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    await client.login('alice', 'correct-horse');
    client.pb.authStore.clear();
    expect(client.store.getState()).toMatchObject({ isAuthenticated: false, user: null });
  });
});

/** The minimal record a stored session holds. */
const usersRecord = (id: string) => ({ id, collectionId: '_pb_users_auth_', collectionName: 'users' });

describe('ConfabClient.initialize', () => {
  it('refreshes a stored valid token and signs in', async () => {
    const authStore = new BaseAuthStore();
    const storedToken = server.issueToken('alice0000000001');
    authStore.save(storedToken, { ...usersRecord('alice0000000001'), username: 'stale-name' });
    const client = new ConfabClient({ baseUrl: server.url, authStore });
    expect(client.store.getState().initializing).toBe(true);
    await client.initialize();
    expect(client.store.getState()).toMatchObject({ initializing: false, isAuthenticated: true, user: { username: 'alice' } });
    expect(authStore.token).not.toBe(storedToken);
    const refresh = server.requests.find((request) => request.path.endsWith('/auth-refresh'));
    expect(refresh?.headers['authorization']).toBe(storedToken);
  });

  it('clears a token the server refuses', async () => {
    const authStore = new BaseAuthStore();
    const unknownToken = server.issueToken('nobody000000001');
    authStore.save(unknownToken, usersRecord('nobody000000001'));
    const client = new ConfabClient({ baseUrl: server.url, authStore });
    await client.initialize();
    expect(authStore.token).toBe('');
    expect(client.store.getState()).toMatchObject({ initializing: false, isAuthenticated: false, user: null });
  });

  it('clears an expired token without calling the server', async () => {
    const authStore = new BaseAuthStore();
    authStore.save(server.issueToken('alice0000000001', -60), usersRecord('alice0000000001'));
    const client = new ConfabClient({ baseUrl: server.url, authStore });
    await client.initialize();
    expect(authStore.token).toBe('');
    expect(server.requests).toHaveLength(0);
    expect(client.store.getState()).toMatchObject({ initializing: false, isAuthenticated: false });
  });

  it('ends initializing without a stored session', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    await client.initialize();
    expect(client.store.getState()).toMatchObject({ initializing: false, isAuthenticated: false });
  });
});

describe('ConfabClient password reset', () => {
  it('requests a reset mail', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    await client.requestPasswordReset(' alice@example.com ');
    expect(server.requests.at(-1)).toMatchObject({
      path: '/api/collections/users/request-password-reset',
      body: { email: 'alice@example.com' },
    });
  });

  it('confirms a reset, and maps a bad token to the spec text', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    await client.confirmPasswordReset('valid-reset-token', 'newpass', 'newpass');
    expect(server.requests.at(-1)?.body).toEqual({ token: 'valid-reset-token', password: 'newpass', passwordConfirm: 'newpass' });
    const error = await client.confirmPasswordReset('bad', 'newpass', 'newpass').catch((caught: unknown) => caught);
    expect(resetPasswordErrorMessage(error)).toBe('Invalid or expired reset token. Please request a new password reset.');
  });
});

describe('ConfabClient.pb, the pocketbase SDK', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is the SDK client, its collections RecordServices and its failures ClientResponseErrors', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    expect(client.pb).toBeInstanceOf(PocketBase);
    expect(client.pb.collection('chats')).toBeInstanceOf(RecordService);
    const failure = await client.pb.collection('users').authWithPassword('alice', 'wrong').catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ClientResponseError);
    expect((failure as ClientResponseError).status).toBe(400);
  });

  it('does not cancel concurrent requests to the same collection (no auto-cancellation)', async () => {
    const client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
    await client.login('alice', 'correct-horse');
    const chat = server.backend.addChat({ name: 'Team', participants: ['alice0000000001'] });
    // With the SDK's default, each of these would abort the one before it (same method and path).
    const settled = await Promise.allSettled([
      client.pb.collection('chats').getList(1, 10),
      client.pb.collection('chats').getList(1, 10),
      client.pb.collection('chats').getOne(chat.id),
      client.pb.collection('chats').getOne(chat.id),
    ]);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const [first, second] = await Promise.all([client.chats.get(chat.id), client.chats.get(chat.id)]);
    expect([first?.id, second?.id]).toEqual([chat.id, chat.id]);
  });

  it("keeps a browser session as {token, record} under the SDK's key 'pocketbase_auth', so signed-in people stay signed in", async () => {
    const items = new Map<string, string>();
    const localStorage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    vi.stubGlobal('window', { localStorage, addEventListener: () => {} });
    // A session an earlier version of the app saved (SDK versions before 0.23 called the record `model`).
    const savedToken = server.issueToken('alice0000000001');
    items.set('pocketbase_auth', JSON.stringify({ token: savedToken, model: { ...usersRecord('alice0000000001'), username: 'alice' } }));
    const client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
    expect(client.pb.authStore).toBeInstanceOf(LocalAuthStore);
    await client.initialize();
    expect(client.store.getState()).toMatchObject({ isAuthenticated: true, user: { username: 'alice' } });
    const stored = JSON.parse(items.get('pocketbase_auth') ?? '{}') as { token: string; record: { id: string } };
    expect([stored.token, stored.record.id]).toEqual([client.pb.authStore.token, 'alice0000000001']);
    client.logout();
    expect(items.has('pocketbase_auth')).toBe(false);
  });
});

describe('ConfabClient transport', () => {
  it('keeps the session in memory outside a browser, and takes an injected auth store', () => {
    const client = new ConfabClient({ baseUrl: server.url });
    expect(client.pb.authStore).toBeInstanceOf(BaseAuthStore);
    expect(client.pb.authStore).not.toBeInstanceOf(LocalAuthStore);
    const injected = new BaseAuthStore();
    expect(new ConfabClient({ baseUrl: server.url, authStore: injected }).pb.authStore).toBe(injected);
    expect(client.baseUrl).toBe(server.url);
  });

  it('sends every request through an injected fetch', async () => {
    const seen: string[] = [];
    const countingFetch: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    const client = new ConfabClient({ baseUrl: server.url, fetch: countingFetch });
    await client.loadConfig();
    await client.login('alice', 'correct-horse');
    await client.request('/api/echo-auth');
    expect(seen).toEqual([
      `${server.url}/api/config`,
      `${server.url}/api/collections/users/auth-with-password`,
      `${server.url}/api/echo-auth`,
    ]);
  });

  it('sends the bearer token on product endpoints and turns errors into ConfabError', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    expect(await client.request('/api/echo-auth')).toEqual({ authorization: null });
    await client.login('alice', 'correct-horse');
    expect(await client.request('/api/echo-auth')).toEqual({ authorization: `Bearer ${client.pb.authStore.token}` });
    const error = await client.request('/api/invitation/missing').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfabError);
    expect([(error as ConfabError).status, (error as ConfabError).message]).toEqual([404, 'Invalid or expired invitation']);
  });

  it('flags an aborted product request', async () => {
    const client = new ConfabClient({ baseUrl: server.url });
    const controller = new AbortController();
    controller.abort();
    const error = await client.request('/api/echo-auth', { signal: controller.signal }).catch((caught: unknown) => caught);
    expect((error as ConfabError).isAbort).toBe(true);
  });
});
