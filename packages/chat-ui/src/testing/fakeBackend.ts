/**
 * A tiny in-memory stand-in for confab-server's account endpoints, speaking the PocketBase wire
 * format (shared/reference/pocketbase-wire.md). Tests and stories hand its `fetch` to a real
 * ConfabClient, so screens are exercised through the real client and SDK, not mocks.
 *
 * Not exported from the package: it knows only what the account screens need.
 */

export interface FakeUser {
  id: string;
  username: string;
  email: string;
  name: string;
  password: string;
}

export type FakeRoute = (request: Request, body: Record<string, unknown>) => Response | Promise<Response>;

export interface FakeBackend {
  /** Pass to `new ConfabClient({ fetch })`. */
  fetch: typeof fetch;
  users: FakeUser[];
  /** Reset tokens that confirm-password-reset accepts. */
  resetTokens: Set<string>;
  /** Every request seen, as 'METHOD /path' plus its JSON body. */
  requests: Array<{ route: string; body: Record<string, unknown> }>;
  /** Answer a route ('POST /api/collections/users/auth-with-password') your own way. */
  override(route: string, handler: FakeRoute): void;
  /** Hold every request until the returned function is called (shows "submitting" states). */
  hold(): () => void;
}

const usersPath = '/api/collections/users';

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** PocketBase's error JSON (status, message, data of field errors). */
export function errorResponse(status: number, message: string, data: Record<string, unknown> = {}): Response {
  return json(status, { status, message, data });
}

function base64Url(value: string): string {
  return btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT whose `exp` the SDK's auth store reads to decide the session is valid. */
export function fakeToken(userId: string, lifetimeSeconds = 3600): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(
    JSON.stringify({ id: userId, collectionId: '_pb_users_auth_', type: 'auth', refreshable: true, exp: Math.floor(Date.now() / 1000) + lifetimeSeconds }),
  );
  return `${header}.${payload}.fake-signature`;
}

export function userRecord(user: FakeUser): Record<string, unknown> {
  const stamp = '2026-01-01 00:00:00.000Z';
  return {
    id: user.id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    username: user.username,
    email: user.email,
    name: user.name,
    type: 'user',
    emailVisibility: false,
    verified: false,
    soft_registered: false,
    signup_completed: true,
    created: stamp,
    updated: stamp,
  };
}

let idCounter = 0;
function nextId(): string {
  idCounter += 1;
  return `user${String(idCounter).padStart(11, '0')}`;
}

export function createFakeBackend(options: { users?: Array<Omit<FakeUser, 'id'>> } = {}): FakeBackend {
  const users: FakeUser[] = (options.users ?? []).map((user) => ({ ...user, id: nextId() }));
  const resetTokens = new Set<string>();
  const requests: FakeBackend['requests'] = [];
  const overrides = new Map<string, FakeRoute>();
  let gate: Promise<void> | null = null;

  const routes: Record<string, FakeRoute> = {
    'GET /api/config': () =>
      json(200, { api_base_url: 'http://confab.test', websocket_url: 'ws://confab.test/api/ws', environment: 'test', public_domain: 'confab.test' }),
    [`POST ${usersPath}/auth-with-password`]: (_request, body) => {
      const identity = String(body['identity'] ?? '');
      const user = users.find((candidate) => candidate.username === identity || candidate.email === identity);
      if (user === undefined || user.password !== body['password']) return errorResponse(400, 'Failed to authenticate.');
      return json(200, { token: fakeToken(user.id), record: userRecord(user) });
    },
    [`POST ${usersPath}/auth-refresh`]: (request) => {
      const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      const payload = token.split('.')[1];
      const id = payload ? (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: string }).id : undefined;
      const user = users.find((candidate) => candidate.id === id);
      if (user === undefined) return errorResponse(401, 'Missing or invalid authentication.');
      return json(200, { token: fakeToken(user.id), record: userRecord(user) });
    },
    [`POST ${usersPath}/records`]: (_request, body) => {
      const data: Record<string, { code: string; message: string }> = {};
      if (users.some((user) => user.username === body['username'])) data['username'] = { code: 'validation_not_unique', message: 'Value must be unique.' };
      if (users.some((user) => user.email === body['email'])) data['email'] = { code: 'validation_not_unique', message: 'Value must be unique.' };
      if (body['password'] !== body['passwordConfirm']) data['passwordConfirm'] = { code: 'validation_values_mismatch', message: "Values don't match." };
      if (Object.keys(data).length > 0) return errorResponse(400, 'Failed to create record.', data);
      const user: FakeUser = {
        id: nextId(),
        username: String(body['username']),
        email: String(body['email']),
        name: String(body['name'] ?? ''),
        password: String(body['password']),
      };
      users.push(user);
      return json(200, userRecord(user));
    },
    [`POST ${usersPath}/request-password-reset`]: () => new Response(null, { status: 204 }),
    [`POST ${usersPath}/confirm-password-reset`]: (_request, body) => {
      const token = String(body['token'] ?? '');
      if (!resetTokens.has(token)) {
        return errorResponse(400, 'Failed to confirm password reset.', { token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' } });
      }
      resetTokens.delete(token);
      return new Response(null, { status: 204 });
    },
  };

  const handle = async (request: Request): Promise<Response> => {
    if (gate !== null) await gate;
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    const text = request.method === 'GET' ? '' : await request.text();
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    requests.push({ route, body });
    const handler = overrides.get(route) ?? routes[route];
    return handler ? handler(request, body) : errorResponse(404, "The requested resource wasn't found.");
  };

  return {
    fetch: (input, init) => handle(new Request(input, init)),
    users,
    resetTokens,
    requests,
    override: (route, handler) => overrides.set(route, handler),
    hold: () => {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
      return release;
    },
  };
}
