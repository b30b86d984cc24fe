import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest, type RawResponse } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

const variants = await databaseVariants();

function expectErrorShape(response: RawResponse, status: number): void {
  expect(response.status).toBe(status);
  expect(response.contentType).toContain('application/json');
  expect(Object.keys(response.body as object).sort()).toEqual(['data', 'message', 'status']);
  expect((response.body as { status: number }).status).toBe(status);
  expect(response.text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|SQLITE_|syntax error at/i);
}

describe.each(variants)('error hygiene ($name)', (variant) => {
  let testServer: TestServer;
  let erin: RegisteredUser;

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    erin = await registerUser(testServer);
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('answers malformed JSON with 400', async () => {
    const response = await rawRequest(testServer.url, 'POST', '/api/collections/chats/records', {
      token: erin.pb.authStore.token,
      rawBody: '{"name": "unterminated',
    });
    expectErrorShape(response, 400);
  });

  it('accepts an empty JSON body and a Bearer token', async () => {
    const response = await rawRequest(testServer.url, 'POST', '/api/collections/users/auth-refresh', {
      token: `Bearer ${erin.pb.authStore.token}`,
      contentType: 'application/json',
    });
    expect(response.status).toBe(200);
  });

  it('treats an invalid token on record routes as a guest', async () => {
    const response = await rawRequest(testServer.url, 'GET', '/api/collections/chats/records', { token: 'not.a.token' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ items: [], page: 1, perPage: 30 });
  });

  it('answers unknown routes and collections with JSON 404s', async () => {
    expectErrorShape(await rawRequest(testServer.url, 'GET', '/api/does-not-exist'), 404);
    const collection = await rawRequest(testServer.url, 'GET', '/api/collections/secrets/records');
    expectErrorShape(collection, 404);
    expect((collection.body as { message: string }).message).toBe('Missing collection context.');
    expectErrorShape(await rawRequest(testServer.url, 'DELETE', '/api/collections/chats/records'), 404);
  });

  it('never leaks internals for hostile filters, sorts, bodies and fields', async () => {
    const token = erin.pb.authStore.token;
    const hostile = [
      `/api/collections/chats/records?filter=${encodeURIComponent("name = 'x' OR 1=1; DROP TABLE chats; --")}`,
      `/api/collections/chats/records?filter=${encodeURIComponent('((((((((((((((((((((((name = 1))))))))))))))))))))))')}`,
      `/api/collections/chats/records?sort=${encodeURIComponent('name; DROP TABLE users')}`,
      `/api/collections/messages/records?filter=${encodeURIComponent('content_encrypted ~ "v1"')}`,
      `/api/collections/users/records?filter=${encodeURIComponent('password_hash != ""')}`,
      `/api/collections/chats/records?filter=${'x'.repeat(5000)}`,
    ];
    for (const path of hostile) {
      const response = await rawRequest(testServer.url, 'GET', path, { token });
      expect([400, 403]).toContain(response.status);
      expectErrorShape(response, response.status);
    }
    expect(await testServer.probe.count('users')).toBeGreaterThan(0);
    for (const body of ['[1,2,3]', '"text"', 'null', '{"name": {"$gt": ""}}']) {
      const response = await rawRequest(testServer.url, 'POST', '/api/collections/chats/records', { token, rawBody: body });
      expectErrorShape(response, 400);
    }
  });

  it('accepts multipart with @jsonPayload and urlencoded bodies', async () => {
    const form = new FormData();
    form.append('name', 'ignored');
    form.append('@jsonPayload', JSON.stringify({ name: 'From multipart' }));
    const multipart = await fetch(`${testServer.url}/api/collections/chats/records`, {
      method: 'POST',
      headers: { authorization: erin.pb.authStore.token },
      body: form,
    });
    expect(multipart.status).toBe(200);
    expect(((await multipart.json()) as { name: string }).name).toBe('From multipart');
    const encoded = await rawRequest(testServer.url, 'POST', '/api/collections/chats/records', {
      token: erin.pb.authStore.token,
      rawBody: 'name=From+a+form',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect((encoded.body as { name: string }).name).toBe('From a form');
  });

  it('lets no unlisted origin through CORS and sets protective headers', async () => {
    // CORS for listed origins (CONFAB_ALLOWED_ORIGINS) is tested in cors.test.ts.
    const preflight = await fetch(`${testServer.url}/api/collections/chats/records`, {
      method: 'OPTIONS',
      headers: { origin: 'https://embedder.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const health = await fetch(`${testServer.url}/api/health`);
    expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(health.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('serves health and config', async () => {
    const health = await rawRequest(testServer.url, 'GET', '/api/health');
    // An idle server: @data's job pool is reported, and not saturated.
    expect(health.body).toEqual({ message: 'API is healthy.', code: 200, data: { agents: { data: { running: 0, queued: 0, saturated: false } } } });
    const config = await rawRequest(testServer.url, 'GET', '/api/config');
    const host = new URL(testServer.url).host;
    expect(config.body).toEqual({
      api_base_url: `http://${host}`,
      websocket_url: `ws://${host}/api/ws`,
      environment: expect.any(String),
      public_domain: host,
      mail_domain: 'confab.localhost',
      // No image types added by the operator (CONFAB_UPLOAD_EXTENSIONS).
      upload_extensions: [],
    });
  });
});
