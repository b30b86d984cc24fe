/**
 * @browse with headless Chromium (CONFAB_BROWSE_CHROMIUM; docs/SECURITY.md H8): pages that write their content
 * with JavaScript are read, and every request the page makes goes through the guarded proxy: a
 * private address outside CONFAB_FETCH_ALLOW_HOSTS is never reached (the local target counts
 * connections), whether asked by an image, a script, fetch, XHR, an iframe, a WebSocket, a
 * redirect or a name that resolves to loopback. Needs Chromium: skipped locally without it, a
 * failure in CI (as the browser e2e tests decide it).
 */
import { existsSync } from 'node:fs';
import type { WireMessage } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPage } from '../src/agents/hosted/browse';
import { ChromiumRenderer } from '../src/agents/tools/chromium';
import { createFetcher, decodeText, FetchError } from '../src/agents/tools/fetcher';
import type { Resolver } from '../src/agents/tools/addressGuard';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startCountingSite, type CountingSite } from './support/countingSite';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket } from './support/wsClient';

const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable && process.env['CI']) throw new Error(`The Chromium tests of @browse need ${chromiumPath} (set CHROMIUM_PATH).`);
const describeChromium = chromiumAvailable ? describe : describe.skip;

type Site = CountingSite;

/** A local site that counts connections and requests; pages may be functions of the site's port. */
function startSite(pages: Record<string, (port: number) => [number, Record<string, string>, string | Buffer]>): Promise<Site> {
  return startCountingSite((incoming, response, site) => {
    const page = pages[incoming.url ?? ''];
    if (page === undefined) return void response.writeHead(404).end();
    const [status, headers, body] = page(site.port);
    response.writeHead(status, headers).end(body);
  });
}

const html = (body: string): [number, Record<string, string>, string] => [200, { 'content-type': 'text/html; charset=utf-8' }, body];

/** A page whose whole article is written by its script, part of it from JSON fetched after load. */
const scriptedPage = `<!doctype html><html><head><title>Loading…</title></head><body><div id="app">Loading…</div>
<script>
  document.title = ['Rendered', 'Otters'].join(' ');
  document.getElementById('app').innerHTML = '<article><h1>' + document.title + '</h1><p id="first">' +
    ['Sea', 'otters', 'hold', 'hands'].join(' ') + ' while they sleep, so that they do not drift apart on the water at night.</p><p id="second"></p></article>';
  setTimeout(() => fetch('/data.json').then((response) => response.json()).then((data) => {
    document.getElementById('second').textContent = data.text;
  }), 50);
</script></body></html>`;

const resolverTo127: Resolver = async (hostname) => {
  if (hostname === 'public.example') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error('not found');
};

describeChromium('headless Chromium behind the address guard', () => {
  let site: Site;
  let target: Site;
  let renderer: ChromiumRenderer;

  beforeAll(async () => {
    target = await startSite({ '/pixel.png': () => [200, { 'content-type': 'image/png' }, 'x'], '/api': () => [200, { 'content-type': 'application/json' }, '{"secret":1}'] });
    const t = () => target.port;
    site = await startSite({
      '/scripted': () => html(scriptedPage),
      '/data.json': () => [200, { 'content-type': 'application/json' }, JSON.stringify({ text: ['Their', 'fur', 'is', 'the', 'densest', 'of', 'any', 'animal.'].join(' ') })],
      '/hostile': () =>
        html(`<!doctype html><html><head><title>Hostile</title><script src="http://127.0.0.1:${t()}/script.js"></script>
<link rel="stylesheet" href="http://localhost:${t()}/style.css"></head><body>
<article><h1>A page that reaches inside</h1><p>This page tries to reach a private address in many ways, and none of them may get there at all.</p></article>
<img src="http://127.0.0.1:${t()}/pixel.png"><img src="http://[::ffff:127.0.0.1]:${t()}/pixel.png"><img src="http://0x7f000001:${t()}/pixel.png">
<img src="http://public.example:${t()}/pixel.png"><iframe src="http://127.0.0.1:${t()}/frame"></iframe>
<script>
  fetch('http://127.0.0.1:${t()}/api').catch(() => undefined);
  fetch('https://127.0.0.1:${t()}/api').catch(() => undefined);
  const request = new XMLHttpRequest(); request.open('GET', 'http://127.0.0.1:${t()}/api'); request.send();
  try { new WebSocket('ws://127.0.0.1:${t()}/socket'); } catch {}
  try { new WebSocket('ws://127.0.0.1:${site.port}/socket'); } catch {}
  navigator.sendBeacon('http://127.0.0.1:${t()}/beacon', 'x');
  document.getElementById && (document.body.dataset.done = '1');
</script></body></html>`),
      '/to-private': () => [302, { location: `http://127.0.0.1:${t()}/api` }, ''],
      '/to-rebound': () => [302, { location: `http://public.example:${t()}/api` }, ''],
      '/report.pdf': () => [200, { 'content-type': 'application/pdf' }, '%PDF-1.4'],
      '/spin': () => html('<!doctype html><title>Spin</title><p>spin</p><script>for (;;) {}</script>'),
      '/heavy': () => html(`<!doctype html><title>Heavy</title><p>heavy</p><img src="/big.bin">`),
      '/big.bin': () => [200, { 'content-type': 'application/octet-stream' }, Buffer.alloc(400 * 1024, 1)],
    });
    renderer = new ChromiumRenderer({ executablePath: chromiumPath, allowHosts: [`127.0.0.1:${site.port}`], resolver: resolverTo127 });
  });

  afterAll(async () => {
    await renderer?.close();
    await site?.close();
    await target?.close();
  });

  it('reads a page whose content is written by JavaScript, which the plain fetcher cannot', async () => {
    const url = `http://127.0.0.1:${site.port}/scripted`;
    const rendered = await renderer.render(url);
    expect(rendered?.url).toBe(url);
    const page = readPage(url, rendered?.html ?? '', 'text/html');
    expect(page.title).toBe('Rendered Otters');
    expect(page.paragraphs.join('\n')).toContain('Sea otters hold hands while they sleep');
    expect(page.paragraphs.join('\n')).toContain('Their fur is the densest of any animal.');

    const fetched = await createFetcher({ allowHosts: [`127.0.0.1:${site.port}`] }).fetch(url);
    const unrendered = readPage(url, decodeText(fetched), fetched.mediaType);
    expect(unrendered.paragraphs.join('\n')).not.toContain('Sea otters hold hands');
    expect(unrendered.title).toBe('Loading…');
  }, 60_000);

  it('lets the allowed page load while none of its requests to a private address reaches the target', async () => {
    const rendered = await renderer.render(`http://127.0.0.1:${site.port}/hostile`);
    expect(rendered?.html).toContain('none of them may get there');
    expect(rendered?.html).toContain('data-done="1"');
    // Give straggling subresources time to try.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.requests).toEqual([]);
    expect(target.connections).toBe(0);
    // The WebSocket to the allowed site was closed before it reached it too.
    expect(site.requests.filter((request) => request.startsWith('upgrade'))).toEqual([]);
  }, 60_000);

  it('refuses a private document, a redirect to one and a name that resolves to loopback, with the guard’s reply', async () => {
    const cases: Array<[string, string]> = [
      [`http://127.0.0.1:${target.port}/api`, 'refused_address'],
      [`http://[::1]:${target.port}/api`, 'refused_address'],
      [`http://127.0.0.1:${site.port}/to-private`, 'refused_address'],
      [`http://127.0.0.1:${site.port}/to-rebound`, 'refused_address'],
      ['http://169.254.169.254/latest/meta-data/', 'refused_address'],
      ['file:///etc/passwd', 'unsupported_scheme'],
    ];
    for (const [url, code] of cases) {
      const error = await renderer.render(url).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error, url).toBeInstanceOf(FetchError);
      expect((error as FetchError).code, url).toBe(code);
      if (code === 'refused_address') expect((error as FetchError).message, url).toMatch(/I only reach public addresses\.$/);
    }
    expect(target.requests).toEqual([]);
    expect(target.connections).toBe(0);
  }, 60_000);

  it('hands what is not a web page back to the fetcher, and stops a page past its time or byte budget', async () => {
    expect(await renderer.render(`http://127.0.0.1:${site.port}/report.pdf`)).toBeUndefined();
    const strict = new ChromiumRenderer({ executablePath: chromiumPath, allowHosts: [`127.0.0.1:${site.port}`], timeoutMs: 2_000, maxBytes: 100 * 1024 });
    try {
      const started = Date.now();
      await expect(strict.render(`http://127.0.0.1:${site.port}/spin`)).rejects.toMatchObject({ code: 'timeout' });
      expect(Date.now() - started).toBeLessThan(8_000);
      await expect(strict.render(`http://127.0.0.1:${site.port}/heavy`)).rejects.toMatchObject({ code: 'too_large' });
      // The browser survives both and renders the next page.
      expect((await strict.render(`http://127.0.0.1:${site.port}/scripted`))?.html).toContain('Sea otters hold hands');
    } finally {
      await strict.close();
    }
  }, 90_000);
});

const [sqlite] = await databaseVariants();

describeChromium('@browse with CONFAB_BROWSE_CHROMIUM', () => {
  let site: Site;
  let rendering: TestServer;
  let plain: TestServer;

  async function askBrowse(testServer: TestServer, text: string): Promise<WireMessage> {
    const user: RegisteredUser = await registerUser(testServer);
    const chat = await createChat(user, { name: 'Browsing' });
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    try {
      await socket.join(chat.id);
      await postMessage(user, chat.id, text);
      for (;;) {
        const message = await socket.nextMessage(chat.id, 45_000);
        if (message.author_username === 'browse') return message;
      }
    } finally {
      await socket.close();
    }
  }

  beforeAll(async () => {
    site = await startSite({
      '/scripted': () => html(scriptedPage),
      '/data.json': () => [200, { 'content-type': 'application/json' }, JSON.stringify({ text: 'Their fur is the densest of any animal.' })],
    });
    const allow = { fetchAllowHosts: [`127.0.0.1:${site.port}`] };
    rendering = await startTestServer(sqlite!, { ...allow, browseChromium: chromiumPath });
    plain = await startTestServer(sqlite!, allow);
  });

  afterAll(async () => {
    await rendering?.close();
    await plain?.close();
    await site?.close();
  });

  it('reads a JavaScript page with Chromium on, and not without', async () => {
    const url = `http://127.0.0.1:${site.port}/scripted`;
    const read = await askBrowse(rendering, `@browse ${url}`);
    expect(read.content).toContain('**Rendered Otters**');
    expect(read.content).toContain('Sea otters hold hands while they sleep');
    const unread = await askBrowse(plain, `@browse ${url}`);
    expect(unread.content).not.toContain('Sea otters hold hands');
    expect((await askBrowse(rendering, '@browse help')).content).toContain('rendered in a headless browser');
    expect((await askBrowse(plain, '@browse help')).content).toContain('do not run their scripts');
  }, 120_000);

  it('says in /api/health whether pages are rendered (Chat Options shows it)', async () => {
    expect((await rawRequest(rendering.url, 'GET', '/api/health')).body).toMatchObject({ data: { browse: { renders_javascript: true } } });
    expect((await rawRequest(plain.url, 'GET', '/api/health')).body).toEqual({ message: 'API is healthy.', code: 200, data: { agents: { data: { running: 0, queued: 0, saturated: false } } } });
  });
});
