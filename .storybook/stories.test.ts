/**
 * Every story of the static Storybook, in Debian's Chromium (playwright-core, no downloaded
 * browser), in the light and the dark theme: it renders without an exception, its play function
 * passes, and axe-core finds no serious or critical violation on the page. Stories tagged 'narrow'
 * are checked at a phone's size.
 *
 * The static build (`storybook build -o storybook-static`) is made first when it is missing or
 * older than any source it is built from. Without Chromium the suite is skipped locally and fails
 * under CI=true, as the reference app's browser e2e does.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'storybook-static');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable && process.env.CI) {
  throw new Error(`The Storybook checks need Chromium at ${chromiumPath} (set CHROMIUM_PATH).`);
}

/** Newest modification time under `path` (a file or a folder), skipping node_modules and dist. */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** What the static Storybook is built from: the stories, chat-ui and client sources, the config. */
const buildInputs = [
  'packages/chat-ui/src',
  'packages/client/src',
  '.storybook/main.ts',
  '.storybook/preview.ts',
  '.storybook/preview-head.html',
  'vitest.shared.ts',
  'package.json',
  'pnpm-lock.yaml',
].map((path) => join(root, path));

function ensureStaticBuild(): void {
  const index = join(outDir, 'index.json');
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  const stale = buildInputs.some((path) => newestMtime(path) > builtAt);
  if (!stale && !process.env.STORYBOOK_REBUILD) return;
  const started = Date.now();
  const result = spawnSync(join(root, 'node_modules/.bin/storybook'), ['build', '-o', outDir, '--quiet'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`storybook build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  console.log(`storybook build: ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

interface IndexEntry {
  id: string;
  type: 'story' | 'docs';
  title: string;
  name: string;
  importPath: string;
  tags?: string[];
}

// The story list decides the tests, so the build happens before they are collected.
if (chromiumAvailable) ensureStaticBuild();
const stories: IndexEntry[] = chromiumAvailable
  ? Object.values((JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8')) as { entries: Record<string, IndexEntry> }).entries).filter(
      (entry) => entry.type === 'story',
    )
  : [];
// Phone-sized stories last, so each page resizes (and reloads the preview) once.
stories.sort((a, b) => Number(a.tags?.includes('narrow') ?? false) - Number(b.tags?.includes('narrow') ?? false));

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
};

/** A static file server for storybook-static on 127.0.0.1 and a free port. */
async function serveStatic(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    let file = normalize(join(dir, pathname));
    if (file !== dir && !file.startsWith(dir + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface StoryEvent {
  type: string;
  args: unknown[];
}

const endEvents = ['storyFinished', 'storyErrored', 'storyMissing'];
const errorEvents = new Set(['storyErrored', 'storyMissing', 'storyThrewException', 'playFunctionThrewException', 'unhandledErrorsWhilePlaying']);

/**
 * Runs before the preview's own scripts: as soon as the preview installs its channel, records the
 * events that end a story's render and its errors into `window.__confabStory.events`.
 */
const recordChannelEvents = `(() => {
  const names = ${JSON.stringify([...new Set(['storyRendered', ...endEvents, ...errorEvents])])};
  const plain = (args) => { try { return JSON.parse(JSON.stringify(args)); } catch { return args.map(String); } };
  window.__confabStory = { id: new URLSearchParams(location.search).get('id'), events: [] };
  let current;
  Object.defineProperty(globalThis, '__STORYBOOK_ADDONS_CHANNEL__', {
    configurable: true,
    get() { return current; },
    set(channel) {
      const fresh = channel && channel !== current;
      current = channel;
      if (fresh) for (const name of names) channel.on(name, (...args) => window.__confabStory.events.push({ type: name, args: plain(args) }));
    },
  });
})();`;

/**
 * Shows story `id` and resolves with the channel events of its render once it is over: the
 * preview emits `storyRendered` after the play function, then `storyFinished` (status 'error' when
 * the play function failed). A fresh page loads iframe.html for the story; a page that already
 * shows one switches story over the channel (`setCurrentStory`), much cheaper than parsing the
 * bundle again.
 */
async function showStory(page: Page, baseUrl: string, id: string, theme: string, fresh: boolean): Promise<StoryEvent[]> {
  if (fresh) {
    // The theme is the toolbar's global (.storybook/preview.ts); it stays as the page switches story.
    await page.goto(`${baseUrl}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story&globals=confabTheme:${theme}`);
  } else {
    await page.evaluate((storyId) => {
      const scope = window as unknown as { __confabStory: { id: string; events: StoryEvent[] }; __STORYBOOK_ADDONS_CHANNEL__: { emit(name: string, ...args: unknown[]): void } };
      scope.__confabStory = { id: storyId, events: [] };
      // Each story starts as on a fresh page: no session or flags left by the previous one.
      localStorage.clear();
      sessionStorage.clear();
      scope.__STORYBOOK_ADDONS_CHANNEL__.emit('setCurrentStory', { storyId, viewMode: 'story' });
    }, id);
  }
  const handle = await page.waitForFunction(
    (ends) => {
      const { events } = (window as unknown as { __confabStory: { events: StoryEvent[] } }).__confabStory;
      return events.some((event) => ends.includes(event.type)) ? events : false;
    },
    endEvents,
    { timeout: 30_000, polling: 50 },
  );
  return (await handle.jsonValue()) as StoryEvent[];
}

/** An error event in a few lines: its message without colour codes or the DOM dump Testing Library appends. */
function describeEvent(event: StoryEvent): string {
  const details = event.args.map((arg) => {
    const error = arg as { message?: string; title?: string; description?: string; stack?: string } | null;
    const text = typeof arg === 'string' ? arg : (error?.message ?? error?.title ?? error?.description ?? JSON.stringify(arg));
    // eslint-disable-next-line no-control-regex
    return text.replace(/\u001b\[[0-9;]*m/g, '').split('\n\nIgnored nodes')[0]!.split('\n\nHere are the accessible roles')[0]!.slice(0, 1200);
  });
  return `${event.type}: ${details.join('\n')}`;
}

/** Every story is checked in each theme (STORYBOOK_THEMES=light to check one). */
const themes = (process.env.STORYBOOK_THEMES ?? 'light,dark').split(',').filter((theme) => /^[a-z]+$/.test(theme));

interface Slot {
  page: Page;
  /** The preview is loaded at this size and theme (null: not loaded yet). */
  shows: { theme: string; narrow: boolean } | null;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** Stories tagged 'narrow' are checked at a phone's size (the size the end-to-end checks measure on). */
const phone = { width: 390, height: 844 };
const desktop = { width: 1024, height: 768 };

/** Pages checking stories side by side (one browser). */
const pageCount = Number(process.env.STORYBOOK_PAGES ?? 2);

const describeStories = chromiumAvailable ? describe : describe.skip;

describeStories('Storybook: every story renders, plays and passes axe', () => {
  let server: Server;
  let baseUrl: string;
  let browser: Browser;
  /** Idle pages, each in its own context (storage is per origin and context: stories on two pages must not share a session), with the preview loaded once it has shown a story. */
  const idle: Slot[] = [];
  const waiting: Array<(slot: Slot) => void> = [];
  const started = Date.now();

  let axeSource = '';

  /** A page in a context of its own, recording the channel's events and carrying axe-core. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: desktop, reducedMotion: 'reduce' });
    await context.addInitScript({ content: recordChannelEvents });
    await context.addInitScript({ content: axeSource });
    return context.newPage();
  }

  async function acquire(): Promise<Slot> {
    const slot = idle.pop();
    if (slot) return slot;
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(slot: Slot): void {
    const next = waiting.shift();
    if (next) next(slot);
    else idle.push(slot);
  }

  beforeAll(async () => {
    ({ server, url: baseUrl } = await serveStatic(outDir));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    for (let index = 0; index < pageCount; index += 1) idle.push({ page: await newPage(), shows: null });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    console.log(`${stories.length} stories × ${themes.length} themes (${themes.join(', ')}) checked in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });

  it('finds stories in the static build', () => {
    expect(stories.length).toBeGreaterThan(0);
  });

  // Grouped by theme, then size (stories are sorted phone-last), so each page reloads rarely.
  const cases = themes.flatMap((theme) => stories.map((story) => [theme === 'light' ? story.id : `${story.id} [${theme}]`, story, theme] as const));
  it.concurrent.each(cases)('%s', async (name, story, theme) => {
    const id = story.id;
    let slot = await acquire();
    const pageErrors: string[] = [];
    const onPageError = (error: Error) => pageErrors.push(error.stack ?? error.message);
    slot.page.on('pageerror', onPageError);
    let healthy = false;
    try {
      const narrow = story.tags?.includes('narrow') ?? false;
      // A new size or theme loads the preview afresh, so media queries, measured layouts and the
      // theme global start from it; otherwise the loaded preview switches story.
      const fresh = slot.shows === null || slot.shows.narrow !== narrow || slot.shows.theme !== theme;
      if (fresh) await slot.page.setViewportSize(narrow ? phone : desktop);
      const events = await showStory(slot.page, baseUrl, id, theme, fresh);
      slot.shows = { theme, narrow };
      const failures = events.filter(
        (event) => errorEvents.has(event.type) || (event.type === 'storyFinished' && (event.args[0] as { status?: string } | undefined)?.status === 'error'),
      );
      expect(failures.map(describeEvent).join('\n'), `story ${name} failed`).toBe('');
      expect(pageErrors.join('\n'), `uncaught exceptions in ${name}`).toBe('');

      const violations = (await slot.page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
        // The whole document except Storybook's own hidden placeholders (loader, error display, docs).
        const result = await axe.run({ exclude: [['.sb-wrapper'], ['#storybook-docs']] }, { resultTypes: ['violations'] });
        return result.violations;
      })) as AxeViolation[];
      const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      const report = serious
        .flatMap((violation) =>
          violation.nodes.map(
            (node) => `${name}: ${violation.id} (${violation.impact}) ${violation.help}\n  at ${JSON.stringify(node.target)}\n  ${(node.failureSummary ?? '').replace(/\n/g, '\n  ')}`,
          ),
        )
        .join('\n');
      if (report) console.error(report);
      expect(report, `serious or critical axe violations in ${name}`).toBe('');
      healthy = true;
    } finally {
      slot.page.off('pageerror', onPageError);
      if (!healthy) {
        // A failed story may leave the preview stuck: the next story gets a fresh page.
        await slot.page.context().close().catch(() => {});
        slot = { page: await newPage(), shows: null };
      }
      release(slot);
    }
  });
});
