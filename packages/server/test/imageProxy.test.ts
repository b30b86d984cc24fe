import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

/** A 1×1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The remote image site: counts requests; serves a PNG, a lie (HTML called a PNG), HTML, an SVG. */
async function startImageSite(): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((incoming, response) => {
    requests.push(incoming.url ?? '');
    if (incoming.url === '/pixel.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (incoming.url === '/lie.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end('<script>alert(1)</script>');
    if (incoming.url === '/page.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    if (incoming.url === '/drawing.svg') return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg onload="alert(1)"/>');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

describe('image proxy', () => {
  let site: Awaited<ReturnType<typeof startImageSite>>;
  let forbidden: Awaited<ReturnType<typeof startImageSite>>;
  let testServer: TestServer;
  let alice: RegisteredUser;

  beforeAll(async () => {
    site = await startImageSite();
    forbidden = await startImageSite();
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { fetchAllowHosts: [`127.0.0.1:${site.port}`] });
    alice = await registerUser(testServer);
  });

  afterAll(async () => {
    await testServer?.close();
    await site?.close();
    await forbidden?.close();
  });

  const proxyPath = (url: string, token?: string) => `/api/image-proxy?url=${encodeURIComponent(url)}${token === undefined ? '' : `&token=${encodeURIComponent(token)}`}`;

  it('serves an allowed image to a signed-in person, with nosniff, a CSP that allows nothing and private caching', async () => {
    const response = await fetch(`${testServer.url}${proxyPath(`http://127.0.0.1:${site.port}/pixel.png`)}`, { headers: { authorization: alice.pb.authStore.token } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('takes a file token in the URL, as <img> sends no Authorization header, and refuses guests', async () => {
    const { token } = (await rawRequest(testServer.url, 'POST', '/api/files/token', { token: alice.pb.authStore.token })).body as { token: string };
    const withToken = await fetch(`${testServer.url}${proxyPath(`http://127.0.0.1:${site.port}/pixel.png`, token)}`);
    expect(withToken.status).toBe(200);
    const before = site.requests.length;
    expect((await rawRequest(testServer.url, 'GET', proxyPath(`http://127.0.0.1:${site.port}/pixel.png`))).status).toBe(401);
    expect((await rawRequest(testServer.url, 'GET', proxyPath(`http://127.0.0.1:${site.port}/pixel.png`, 'forged'))).status).toBe(401);
    expect(site.requests.length).toBe(before);
  });

  it('refuses private addresses, non-images and images that lie about their type, with clear messages', async () => {
    const ask = (url: string) => rawRequest(testServer.url, 'GET', proxyPath(url), { token: alice.pb.authStore.token });
    for (const url of [`http://127.0.0.1:${forbidden.port}/pixel.png`, `http://0x7f000001:${forbidden.port}/pixel.png`, `http://[::ffff:127.0.0.1]:${forbidden.port}/pixel.png`, 'http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd']) {
      const refused = await ask(url);
      expect(refused.status, url).toBe(400);
      expect((refused.body as { message: string }).message, url).toMatch(/I can't fetch|I only fetch http/);
    }
    expect(forbidden.requests).toEqual([]);
    for (const path of ['/page.html', '/drawing.svg']) {
      const refused = await ask(`http://127.0.0.1:${site.port}${path}`);
      expect(refused.status, path).toBe(400);
      expect((refused.body as { message: string }).message).toContain('not a PNG, JPEG, GIF or WebP image');
    }
    const lie = await ask(`http://127.0.0.1:${site.port}/lie.png`);
    expect(lie.status).toBe(400);
    expect((lie.body as { message: string }).message).toContain('not the image/png it claims to be');
    expect((await ask(`http://127.0.0.1:${site.port}/missing.png`)).status).toBe(404);
    expect((await ask('')).status).toBe(400);
  });
});
