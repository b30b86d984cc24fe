import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RefusedOriginWarnings } from '../src/http/refusedOrigins';
import { registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { logCapture } from './support/logCapture';

/**
 * CORS on the real server: pages on CONFAB_ALLOWED_ORIGINS may call the API from the browser (an
 * embedding site using @confab/client), every other origin gets no CORS headers. Browser-level
 * proof is apps/reference/e2e/embed.test.ts; database-independent, so SQLite only.
 */
const embedder = 'http://127.0.0.1:5199';
const stranger = 'https://elsewhere.example';

function preflight(url: string, origin: string, method = 'POST') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });
}

function varyNames(response: Response): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase());
}

describe('CORS for CONFAB_ALLOWED_ORIGINS', () => {
  let testServer: TestServer;
  let erin: RegisteredUser;

  beforeAll(async () => {
    // A trailing slash in the setting names the same origin.
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { allowedOrigins: [`${embedder}/`, 'https://shop.example'] });
    erin = await registerUser(testServer);
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('answers a listed origin’s preflight with its origin, the methods, the headers and a max-age', async () => {
    const response = await preflight(`${testServer.url}/api/collections/chats/records`, embedder, 'PATCH');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(embedder);
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']));
    const headers = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(varyNames(response)).toContain('origin');
    // Auth is a header, never a cookie: no credentials mode, and never a wildcard.
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('echoes a listed origin on real answers, signed in or not, and says Vary: Origin', async () => {
    const health = await fetch(`${testServer.url}/api/health`, { headers: { origin: 'https://shop.example' } });
    expect(health.status).toBe(200);
    expect(health.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(varyNames(health)).toContain('origin');

    const created = await fetch(`${testServer.url}/api/collections/chats/records`, {
      method: 'POST',
      headers: { origin: embedder, authorization: erin.pb.authStore.token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Embedded chat' }),
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('access-control-allow-origin')).toBe(embedder);

    // Errors carry it too, so the embedding page can read the message.
    const refused = await fetch(`${testServer.url}/api/collections/chats/records`, { method: 'POST', headers: { origin: embedder, 'content-type': 'application/json' }, body: '{' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('access-control-allow-origin')).toBe(embedder);
  });

  it('gives an unlisted origin no CORS headers at all', async () => {
    const answers = [
      await preflight(`${testServer.url}/api/collections/chats/records`, stranger),
      await fetch(`${testServer.url}/api/health`, { headers: { origin: stranger } }),
      // Same host, other port or scheme: another origin.
      await fetch(`${testServer.url}/api/health`, { headers: { origin: 'http://127.0.0.1:5198' } }),
      await fetch(`${testServer.url}/api/health`, { headers: { origin: 'null' } }),
    ];
    for (const response of answers) {
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(response.headers.get('access-control-allow-headers')).toBeNull();
      expect(varyNames(response)).toContain('origin');
    }
    expect(answers[0]!.status).toBe(204);
  });

  it('adds nothing for requests without Origin (CLIs, agents) or outside /api', async () => {
    const health = await fetch(`${testServer.url}/api/health`);
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
    const page = await fetch(`${testServer.url}/`, { headers: { origin: embedder } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS with no allowed origins (the default)', () => {
  let testServer: TestServer;

  beforeAll(async () => {
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('lets no other origin read the API', async () => {
    const response = await preflight(`${testServer.url}/api/collections/chats/records`, embedder);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const health = await fetch(`${testServer.url}/api/health`, { headers: { origin: embedder } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a refused origin in the log', () => {
  let testServer: TestServer;
  const log = logCapture();
  const refusals = () => log.lines().filter((line) => line['level'] === 40 && String(line['msg']).includes('CONFAB_ALLOWED_ORIGINS'));

  beforeAll(async () => {
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { allowedOrigins: [embedder], logger: true, logStream: log.stream, logFormat: 'json', logLevel: 'warn' });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('is named once, with the variable to set, however often its pages ask', async () => {
    // A sign-in from the refused site: the preflight, then (were it let through) the request.
    expect((await preflight(`${testServer.url}/api/collections/users/auth-with-password`, stranger)).status).toBe(204);
    await fetch(`${testServer.url}/api/health`, { headers: { origin: stranger } });
    await fetch(`${testServer.url}/api/health`, { headers: { origin: stranger } });
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ origin: stranger });
    expect(String(refusals()[0]!['msg'])).toContain(stranger);
  });

  it('says nothing of a listed origin, of the server’s own pages, or of requests without Origin', async () => {
    const before = refusals().length;
    await preflight(`${testServer.url}/api/collections/users/auth-with-password`, embedder);
    await fetch(`${testServer.url}/api/health`, { headers: { origin: embedder } });
    // The reference app served by this server sends its own origin on POSTs.
    await fetch(`${testServer.url}/api/collections/users/auth-with-password`, {
      method: 'POST',
      headers: { origin: new URL(testServer.url).origin, 'content-type': 'application/json' },
      body: JSON.stringify({ identity: 'nobody', password: 'nothing-here' }),
    });
    await fetch(`${testServer.url}/api/health`);
    expect(refusals()).toHaveLength(before);
  });

  it('names a WebSocket refused for its origin in the same single line', async () => {
    const other = 'https://third.example';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const socket = new WebSocket(`${testServer.url.replace(/^http/, 'ws')}/api/ws`, { origin: other });
      const status = await new Promise<number>((resolve) =>
        socket.once('unexpected-response', (request, response) => {
          request.destroy();
          resolve(response.statusCode ?? 0);
        }),
      );
      expect(status).toBe(403);
    }
    await fetch(`${testServer.url}/api/health`, { headers: { origin: other } });
    expect(refusals().filter((line) => line['origin'] === other)).toHaveLength(1);
  });
});

describe('RefusedOriginWarnings', () => {
  it('stops naming new origins past its limit, saying so once', () => {
    const warnings: string[] = [];
    const logger = { info() {}, error() {}, warn: (_object: Record<string, unknown>, message: string) => void warnings.push(message) };
    const refused = new RefusedOriginWarnings(logger, 2);
    for (const origin of ['https://a.example', 'https://b.example', 'https://a.example', 'https://c.example', 'https://d.example']) refused.note(origin);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain('https://a.example');
    expect(warnings[1]).toContain('https://b.example');
    expect(warnings[2]).toContain('only the first 2 are logged');
  });
});
