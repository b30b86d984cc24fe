/**
 * index.html names each route's JS (modulepreload links), so the browser fetches a route's chunks
 * together with the entry. Against the built reference app (apps/reference/dist, with the list
 * its build writes), compared with what scripts/sizeBudget.mjs computes from the build manifest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtRouteFiles, entryKeyOf, routeFiles, type Manifest } from '../../../scripts/sizeBudget.mjs';
import { routePattern, routePreloadsFile } from '../src/http/routePreloads';
import { startTestServer, type TestServer } from './support/testServer';

const appDir = fileURLToPath(new URL('../../../apps/reference/', import.meta.url));
const webDir = join(appDir, 'dist');
const built = existsSync(join(webDir, 'index.html')) && existsSync(join(webDir, routePreloadsFile));
if (!built && process.env['CI']) throw new Error(`The built reference app (${webDir}, with ${routePreloadsFile}) is missing: run the README's test command.`);

/** Every JS file the page names: its entry script and its module preloads, in order. */
function scriptsOf(html: string): string[] {
  return [...html.matchAll(/<(?:script type="module"[^>]*\ssrc|link rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe.skipIf(!built)('index.html with the route’s module preloads (built app)', () => {
  let testServer: TestServer;
  let filesOf: Map<string, string[]>;
  let entryFiles: string[];

  beforeAll(async () => {
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { webDir });
    filesOf = new Map(builtRouteFiles(appDir).map(({ route, files }) => [route, files.map((file) => `/${file}`)]));
    const manifest = JSON.parse(readFileSync(join(webDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    entryFiles = routeFiles(manifest, []).map((file) => `/${file}`);
    expect(manifest[entryKeyOf(manifest)]?.file).toBeDefined();
  });

  afterAll(async () => {
    await testServer?.close();
  });

  async function page(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${testServer.url}${path}`, { headers });
  }

  it('names exactly the JS of /chat/:id, each file once, for any chat', async () => {
    const expected = filesOf.get('/chat/:id');
    expect(expected?.length).toBeGreaterThan(entryFiles.length);
    for (const path of ['/chat/x', '/chat/abc123def456', '/chat/abc123def456/']) {
      const response = await page(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      const scripts = scriptsOf(await response.text());
      expect(new Set(scripts).size, path).toBe(scripts.length);
      expect([...scripts].sort(), path).toEqual([...(expected ?? [])].sort());
    }
  });

  it('names the JS of each first-visit route, the root included, and every file exists', async () => {
    for (const [route, files] of filesOf) {
      const path = route.replace(/:[a-z]+/gi, 'some-token');
      const scripts = scriptsOf(await (await page(path)).text());
      expect([...scripts].sort(), route).toEqual([...files].sort());
      for (const file of files) expect(existsSync(join(webDir, file)), file).toBe(true);
    }
  });

  it('gives paths of no listed route only the entry’s JS, as index.html is built', async () => {
    const built = readFileSync(join(webDir, 'index.html'), 'utf8');
    for (const path of ['/drops', '/chat/abc/options', '/chat', '/profile', '/nowhere/at/all']) {
      const html = await (await page(path)).text();
      expect(html, path).toBe(built);
      expect([...scriptsOf(html)].sort(), path).toEqual([...entryFiles].sort());
    }
  });

  it('revalidates by ETag, compresses, and keeps the build list itself private', async () => {
    const first = await page('/login', { 'accept-encoding': 'br' });
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-encoding')).toBe('br');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await page('/login', { 'if-none-match': etag ?? '' });
    expect(again.status).toBe(304);
    // Another route's page is another ETag.
    expect((await page('/register')).headers.get('etag')).not.toBe(etag);

    const list = await page(`/${routePreloadsFile}`);
    expect(list.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await list.text()).not.toContain('"routes"');
  });
});

describe('routePattern', () => {
  it.each([
    ['/', '/', true],
    ['/', '/login', false],
    ['/chat/:id', '/chat/abc', true],
    ['/chat/:id', '/chat/abc/', true],
    ['/chat/:id', '/chat/', false],
    ['/chat/:id', '/chat/abc/options', false],
    ['/join/:token', '/join/t0k.en', true],
    ['/reset-password', '/reset-password', true],
    ['/reset-password', '/reset-passwordx', false],
  ])('%s on %s → %s', (route, path, matches) => {
    expect(routePattern(route).test(path)).toBe(matches);
  });
});
