/**
 * A host page's own CSS against @confab/chat-ui/theme.css, in Chromium. The theme sits in the
 * `confab` cascade layer so it never restyles the host; the other side of that design is that the
 * host's unlayered rules win inside the kit too (`a { color: red }` turns its links red). The one
 * line of the chat-ui README ("Host styles and the kit") opts out: checked here as a host writes it.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Button, ConfabRoot } from '@confab/chat-ui';
import { repositoryRoot } from '../../../scripts/packWorkspace';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable && process.env.CI) throw new Error(`The host-styles test needs Chromium at ${chromiumPath}.`);

const themeDirectory = join(repositoryRoot, 'packages/chat-ui/src/theme');
const optOutLine = '.confab-root :where(*) { all: revert-layer; }';
const red = 'rgb(255, 0, 0)';

/** Real chat-ui markup: a link and a primary button inside the theme root, an inline width on the button. */
const kitMarkup = renderToStaticMarkup(
  createElement(ConfabRoot, { theme: 'light' }, createElement('a', { id: 'kit-link', href: '#chat' }, 'Open chat'), createElement(Button, { id: 'kit-button', style: { width: 123 } }, 'Send')),
);

/** The host's page: its own unlayered CSS, the theme, the kit, and a link of its own. */
function hostPage(hostCss: string): string {
  return `<!doctype html><html><head>
<link rel="stylesheet" href="/theme/theme.css">
<style>a { color: ${red}; } button { color: ${red}; } ${hostCss}</style>
</head><body>${kitMarkup}<a id="host-link" href="#home">Home</a></body></html>`;
}

(chromiumAvailable ? describe : describe.skip)('host styles and the confab layer (Chromium)', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let html = '';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://host').pathname;
      if (path.startsWith('/theme/') && /^[\w-]+\.css$/.test(path.slice('/theme/'.length))) {
        readFile(join(themeDirectory, path.slice('/theme/'.length))).then(
          (body) => response.writeHead(200, { 'content-type': 'text/css' }).end(body),
          () => response.writeHead(404).end(),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  async function styles() {
    return page.evaluate(() => {
      const computed = (id: string) => getComputedStyle(document.getElementById(id)!);
      const primary = getComputedStyle(document.querySelector('.confab-root')!).getPropertyValue('--cf-color-primary').trim();
      // The primary token as a computed colour, for comparison.
      const probe = document.createElement('span');
      probe.style.color = primary;
      document.body.append(probe);
      const primaryColor = getComputedStyle(probe).color;
      probe.remove();
      return {
        kitLink: computed('kit-link').color,
        kitButton: computed('kit-button').color,
        kitButtonWidth: computed('kit-button').width,
        hostLink: computed('host-link').color,
        primaryColor,
      };
    });
  }

  it('lets the host’s unlayered rules win inside the kit: the layer’s design', async () => {
    html = hostPage('');
    await page.goto(origin);
    const seen = await styles();
    expect(seen.kitLink).toBe(red);
    expect(seen.kitButton).toBe(red);
    expect(seen.hostLink).toBe(red);
  });

  it('gives the kit its own look back with the README’s one line, and leaves the host’s page alone', async () => {
    html = hostPage(optOutLine);
    await page.goto(origin);
    const seen = await styles();
    expect(seen.kitLink).toBe(seen.primaryColor);
    expect(seen.kitLink).not.toBe(red);
    // The primary button's white text, from the theme.
    expect(seen.kitButton).toBe('rgb(255, 255, 255)');
    // Inline styles the kit sets (list rows, progress bars) still apply.
    expect(seen.kitButtonWidth).toBe('123px');
    expect(seen.hostLink).toBe(red);
  });

  it('is the line the README prints', async () => {
    const readme = await readFile(join(repositoryRoot, 'packages/chat-ui/README.md'), 'utf8');
    expect(readme).toContain(optOutLine);
  });
});
