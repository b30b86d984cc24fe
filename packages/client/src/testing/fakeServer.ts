import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A tiny HTTP server answering the few routes ConfabClient uses, in the PocketBase wire shape
 * (see shared/reference/pocketbase-wire.md), so tests run the real SDK over real HTTP.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface FakeUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  users: FakeUser[];
  /** Override the answer of GET /api/config: a status and body, or 'default'. */
  configAnswer: { status: number; body: unknown } | 'default';
  issueToken(userId: string, lifetimeSeconds?: number): string;
  close(): Promise<void>;
}

type Answer = { status: number; body?: unknown };

export async function startFakeServer(): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const users: FakeUser[] = [{ id: 'alice0000000001', username: 'alice', email: 'alice@example.com', password: 'correct-horse' }];
  const validTokens = new Map<string, string>();
  const state: Pick<FakeServer, 'configAnswer'> = { configAnswer: 'default' };
  let tokenCounter = 0;

  const issueToken = (userId: string, lifetimeSeconds = 3600): string => {
    tokenCounter += 1;
    const payload = { id: userId, type: 'auth', collectionId: '_pb_users_auth_', refreshable: true, exp: Math.floor(Date.now() / 1000) + lifetimeSeconds, n: tokenCounter };
    const token = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature${tokenCounter}`;
    validTokens.set(token, userId);
    return token;
  };

  const recordOf = (user: FakeUser) => ({
    id: user.id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    username: user.username,
    email: user.email,
    name: '',
    type: 'user',
    soft_registered: false,
    signup_completed: true,
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
  });

  const route = (request: RecordedRequest): Answer => {
    const path = request.path.split('?')[0];
    const body = (request.body ?? {}) as Record<string, string>;
    if (request.method === 'GET' && path === '/api/config') {
      if (state.configAnswer !== 'default') return state.configAnswer;
      return { status: 200, body: { api_base_url: 'https://api.confab.test', websocket_url: 'wss://api.confab.test/api/ws', environment: 'test', public_domain: 'confab.test' } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/auth-with-password') {
      const user = users.find((candidate) => candidate.username === body['identity'] || candidate.email === body['identity']);
      if (user === undefined || user.password !== body['password']) {
        return { status: 400, body: { status: 400, message: 'Failed to authenticate.', data: {} } };
      }
      return { status: 200, body: { token: issueToken(user.id), record: recordOf(user) } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/auth-refresh') {
      const userId = validTokens.get(String(request.headers['authorization'] ?? ''));
      const user = users.find((candidate) => candidate.id === userId);
      if (user === undefined) return { status: 401, body: { status: 401, message: 'Missing or invalid authentication.', data: {} } };
      return { status: 200, body: { token: issueToken(user.id), record: recordOf(user) } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/records') {
      const data: Record<string, { code: string; message: string }> = {};
      if (users.some((user) => user.username === body['username'])) {
        data['username'] = { code: 'validation_not_unique', message: 'The username is invalid or already in use.' };
      }
      if (body['password'] !== body['passwordConfirm']) {
        data['passwordConfirm'] = { code: 'validation_values_mismatch', message: "Values don't match." };
      }
      if (Object.keys(data).length > 0) return { status: 400, body: { status: 400, message: 'Failed to create record.', data } };
      const user: FakeUser = {
        id: `user${String(users.length).padStart(11, '0')}`,
        username: String(body['username']),
        email: String(body['email']),
        password: String(body['password']),
      };
      users.push(user);
      return { status: 200, body: recordOf(user) };
    }
    if (request.method === 'POST' && path === '/api/collections/users/request-password-reset') return { status: 204 };
    if (request.method === 'POST' && path === '/api/collections/users/confirm-password-reset') {
      if (body['token'] === 'valid-reset-token') return { status: 204 };
      return {
        status: 400,
        body: { status: 400, message: 'Failed to confirm password reset.', data: { token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' } } },
      };
    }
    if (request.method === 'GET' && path === '/api/invitation/missing') {
      return { status: 404, body: { status: 404, message: 'Invalid or expired invitation', data: {} } };
    }
    if (request.method === 'GET' && path === '/api/echo-auth') {
      return { status: 200, body: { authorization: request.headers['authorization'] ?? null } };
    }
    return { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };
  };

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      requests.push(request);
      const answer = route(request);
      if (answer.body === undefined) {
        outgoing.writeHead(answer.status).end();
        return;
      }
      outgoing.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    requests,
    users,
    issueToken,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}

/** base64 without padding or URL-unsafe characters, as the SDK's atob-based decoder reads it. */
function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64').replace(/=+$/, '');
}
