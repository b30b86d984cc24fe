/**
 * The message renderer against an XSS corpus in real Chromium (docs/SECURITY.md C1): OWASP
 * filter-evasion vectors plus markdown/search-result ones (fixtures/xss-vectors.json) and
 * DOMPurify's own test fixtures (fixtures/dompurify-fixtures.json). Every vector is rendered into
 * the live DOM, every element is hovered/focused/clicked, the page is scrolled, and then: the
 * canary window.__xss is unset, no dialog opened, no request left for anything but a plain remote
 * image, no popup, no navigation, and the DOM passes an audit that does not trust the renderer's
 * configuration.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from './harness';

interface Vector { title: string; payload: string }
interface Corpus { vectors: Vector[] }

const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable && process.env.CI) throw new Error(`The XSS test needs Chromium at ${chromiumPath}.`);
const describeBrowser = chromiumAvailable ? describe : describe.skip;

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function loadCorpus(): Promise<Array<Vector & { source: string }>> {
  const read = async (name: string) => JSON.parse(await readFile(fixture(name), 'utf8')) as Corpus;
  const [owasp, dompurify] = await Promise.all([read('xss-vectors.json'), read('dompurify-fixtures.json')]);
  return [
    ...owasp.vectors.map((vector) => ({ ...vector, source: 'owasp' })),
    ...dompurify.vectors.map((vector) => ({ ...vector, source: 'dompurify' })),
  ];
}

/** The browser entry bundled as one IIFE; Vite is already a dev dependency, so no new tooling. */
async function bundlePage(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: fixture('xssPage.ts'), formats: ['iife'], name: 'XssPage', fileName: 'xss-page' },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if ('output' in result) {
      const chunk = result.output.find((file) => file.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
  }
  throw new Error('Vite produced no chunk for the XSS page');
}

/** Static page on 127.0.0.1; anything else it is asked for is a 404 (relative image srcs). */
async function serve(script: string): Promise<{ server: Server; origin: string }> {
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>xss</title></head><body><script src="/page.js"></script></body></html>';
  const server = createServer((request, response) => {
    if (request.url === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else if (request.url === '/page.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describeBrowser('message renderer against an XSS corpus in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    ({ server, origin } = await serve(await bundlePage()));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('executes nothing, loads nothing but images, and keeps the DOM inside the allow-list', { timeout: 180_000 }, async () => {
    const corpus = await loadCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(400);

    const context = await browser.newContext();
    const violations: string[] = [];
    let current = 'page load';
    // Remote images are allowed by docs/PRODUCT.md §1 (lazy); they are aborted so nothing really
    // leaves.
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (request.url().startsWith(`${origin}/`)) return route.continue();
      if (request.resourceType() !== 'image' || !/^https?:/.test(request.url())) {
        violations.push(`[${current}] ${request.resourceType()} request to ${request.url().slice(0, 100)}`);
      }
      return route.abort();
    });
    await context.routeWebSocket(/.*/, (socket) => {
      violations.push(`[${current}] websocket to ${socket.url()}`);
      void socket.close();
    });
    const page: Page = await context.newPage();
    context.on('page', (popup) => {
      violations.push(`[${current}] popup ${popup.url()}`);
    });
    page.on('dialog', (dialog) => {
      violations.push(`[${current}] dialog "${dialog.message()}"`);
      void dialog.dismiss();
    });
    await page.goto(`${origin}/`);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) violations.push(`[${current}] navigated to ${frame.url()}`);
    });

    for (const [index, vector] of corpus.entries()) {
      current = `${vector.source} #${index} ${vector.title}`;
      const problems = await page.evaluate(
        ({ index, payload }) => window.xssHarness.mount(index, payload),
        { index, payload: vector.payload },
      );
      for (const problem of problems) violations.push(`[${current}] ${problem}`);
      if (await page.evaluate(() => window.__xss !== undefined)) {
        violations.push(`[${current}] canary set`);
        await page.evaluate(() => { delete window.__xss; });
      }
    }
    current = 'final sweep';
    await page.evaluate(() => window.xssHarness.sweep());
    if (await page.evaluate(() => window.__xss !== undefined)) violations.push('canary set after the sweep');
    expect(await page.locator('article').count()).toBe(corpus.length);
    await context.close();

    expect(violations).toEqual([]);
  });

  // Control: the same page with sanitising bypassed must trip the detectors, or a green run above
  // would prove nothing.
  it('detects execution when the renderer is bypassed', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${origin}/`);
    const canaryAfter = async (payload: string) => {
      await page.evaluate(() => { delete window.__xss; });
      await page.evaluate((raw) => window.xssHarness.mountRaw(raw), payload);
      return page.evaluate(() => window.__xss !== undefined);
    };
    expect(await canaryAfter('<img src="/missing.png" onerror="window.__xss=1">')).toBe(true);
    expect(await canaryAfter('<a href="javascript:window.__xss=1">x</a>')).toBe(true);
    expect(await canaryAfter('<div onmouseover="window.__xss=1">x</div>')).toBe(true);
    await page.evaluate((raw) => window.xssHarness.mountRaw(raw), '<img src="/missing.png" onerror="alert(7)">');
    expect(dialogs).toContain('7');
    await page.close();
  });
});
