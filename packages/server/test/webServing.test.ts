/**
 * The web app served like a production site: compressed by Accept-Encoding (the `.br`/`.gz`
 * copies bundle-web writes when present, else compressed on the way out), hashed assets cached for
 * a year, index.html and client routes revalidated. API answers and file downloads are untouched.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHashedAsset } from '../src/http/staticHosting';
import { createChat, registerUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, still encoded. */
  body: Buffer;
}

/** A GET that leaves Content-Encoding alone (fetch would decode it), so the test sees the wire. */
function get(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, baseUrl), { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

const indexHtml = `<!doctype html><html><head><title>Confab app</title><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(40)}</body></html>`;
const script = Array.from({ length: 800 }, (_, index) => `export const value${index} = 'the same words again and again ${index}';`).join('\n');
const style = Array.from({ length: 300 }, (_, index) => `.confab-${index} { color: var(--confab-text); margin: ${index}px; }`).join('\n');

describe('serving the built web app', () => {
  let testServer: TestServer;
  let webDir: string;
  /** bundle-web's copy of the stylesheet, to tell it apart from compression on the way out. */
  let precompressedStyle: Buffer;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), 'confab-web-'));
    mkdirSync(join(webDir, 'assets'));
    writeFileSync(join(webDir, 'index.html'), indexHtml);
    writeFileSync(join(webDir, 'assets/index-AbCd1234.js'), script);
    writeFileSync(join(webDir, 'assets/index-Ef_5-678.css'), style);
    precompressedStyle = brotliCompressSync(style);
    writeFileSync(join(webDir, 'assets/index-Ef_5-678.css.br'), precompressedStyle);
    writeFileSync(join(webDir, 'robots.txt'), 'User-agent: *\n');
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { webDir });
  });

  afterAll(async () => {
    await testServer?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('sends index.html compressed by Accept-Encoding and always revalidated', async () => {
    for (const encoding of ['br', 'gzip'] as const) {
      for (const path of ['/', '/index.html', '/chat/abc/options', '/reset-password?token=abc']) {
        const answer = await get(testServer.url, path, { 'accept-encoding': encoding });
        expect(answer.status, path).toBe(200);
        expect(answer.headers['content-encoding'], path).toBe(encoding);
        expect(decoded(answer).toString(), path).toBe(indexHtml);
        expect(answer.headers['cache-control'], path).toBe('no-cache');
        expect(answer.headers['content-type'], path).toMatch(/^text\/html/);
        expect(answer.headers['vary'], path).toMatch(/accept-encoding/i);
      }
    }
  });

  it('prefers brotli when both are accepted, and sends the file itself when none is', async () => {
    const both = await get(testServer.url, '/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(both.headers['content-encoding']).toBe('br');
    expect(decoded(both).toString()).toBe(script);

    const plain = await get(testServer.url, '/assets/index-AbCd1234.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(script));
  });

  it('caches hashed assets for a year, compressed on the way out or from their .br copy', async () => {
    const gzip = await get(testServer.url, '/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip' });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip).toString()).toBe(script);
    expect(gzip.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gzip.headers['content-type']).toMatch(/javascript/);

    const brotli = await get(testServer.url, '/assets/index-Ef_5-678.css', { 'accept-encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body.equals(precompressedStyle)).toBe(true);
    expect(decoded(brotli).toString()).toBe(style);
    expect(brotli.headers['content-type']).toMatch(/^text\/css/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['vary']).toMatch(/accept-encoding/i);

    // Without a .gz copy, gzip is made on the way out from the file itself.
    const gzipStyle = await get(testServer.url, '/assets/index-Ef_5-678.css', { 'accept-encoding': 'gzip' });
    expect(gzipStyle.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzipStyle).toString()).toBe(style);
  });

  it('revalidates files without a hash, never serves the .br copies as files, and 404s a missing asset', async () => {
    const robots = await get(testServer.url, '/robots.txt', { 'accept-encoding': 'br' });
    expect(robots.status).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');

    const copy = await get(testServer.url, '/assets/index-Ef_5-678.css.br');
    expect(copy.status).toBe(404);
    const missing = await get(testServer.url, '/assets/index-OldHash1.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    const api = await get(testServer.url, '/api/nothing-here');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body.toString())).toMatchObject({ status: 404 });
  });

  it('answers a Range on an asset with the exact bytes, uncompressed', async () => {
    const part = await get(testServer.url, '/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip', range: 'bytes=7-19' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.toString()).toBe(script.slice(7, 20));
  });

  it('leaves API answers and file downloads (with and without Range) as they were', async () => {
    const health = await get(testServer.url, '/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();

    const owner = await registerUser(testServer, { username: 'web_serving' });
    const chat = await createChat(owner, { name: 'Downloads' });
    const text = 'a,b\n'.repeat(2000);
    const form = new FormData();
    form.append('chat', chat.id);
    form.append('file', new File([text], 'table.csv', { type: 'text/csv' }));
    const uploaded = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: owner.pb.authStore.token }, body: form });
    expect(uploaded.status).toBe(200);
    const record = (await uploaded.json()) as { id: string; file: string };
    const path = `/api/files/files/${record.id}/${record.file}`;
    const headers = { authorization: owner.pb.authStore.token, 'accept-encoding': 'br, gzip' };

    const whole = await get(testServer.url, path, headers);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(Number(whole.headers['content-length'])).toBe(text.length);
    expect(whole.body.toString()).toBe(text);

    const part = await get(testServer.url, path, { ...headers, range: 'bytes=4-11' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 4-11/${text.length}`);
    expect(part.body.toString()).toBe(text.slice(4, 12));
  });
});

describe('isHashedAsset', () => {
  it.each([
    ['assets/index-Bvkr_J5D.css', true],
    ['assets/Agents-Bk29-5x8.js', true],
    ['assets/index-CVrNE21Y.js.map', true],
    ['assets/index-CVrNE21Y.js.br', true],
    ['assets/fonts/inter-AbCdEfGh.woff2', true],
    ['index.html', false],
    ['assets/logo.svg', false],
    ['favicon-32x32.png', false],
    ['assets/short-abc.js', false],
  ])('%s → %s', (path, hashed) => {
    expect(isHashedAsset(path)).toBe(hashed);
  });
});
