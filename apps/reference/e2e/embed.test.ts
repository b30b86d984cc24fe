/**
 * examples/embed-vite as a stranger to this repository gets it: the packed tarballs of
 * @confab/client and @confab/chat-ui installed with npm into a copy of the example outside the
 * workspace, built with Vite, served from one origin, talking to a real confab-server on another
 * (CONFAB_ALLOWED_ORIGINS, CORS). In Chromium: sign in, open a chat, send, and receive a message
 * posted live by someone else through the API; served from an origin the server does not list, the
 * sign-in screen says so instead of 'Login failed. Please try again.'
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import PocketBase from 'pocketbase';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '@confab/server';
import { packPackage, repositoryRoot } from '../../../scripts/packWorkspace';

const run = promisify(execFile);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const exampleDir = join(repositoryRoot, 'examples/embed-vite');

/** Chromium is all this test needs from the machine; in CI its absence is a failure, not a skip. */
const chromiumAvailable = existsSync(chromiumPath);
if (!chromiumAvailable && process.env.CI) throw new Error(`The embed e2e needs Chromium at ${chromiumPath}.`);

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The host site: the built example as static files, every other path its index.html. */
async function serveStatic(root: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    const candidate = normalize(join(root, pathname));
    const inside = candidate.startsWith(root + sep);
    const file = inside && extname(candidate) !== '' && existsSync(candidate) ? candidate : join(root, 'index.html');
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** npm and Vite in the copy, without the npm_* settings of the pnpm that runs these tests. */
function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...environment, ...extra };
}

let counter = 0;
function newAccount(prefix: string) {
  counter += 1;
  const username = `${prefix}_${Date.now().toString(36)}${counter}`;
  return { username, email: `${username}@example.com`, password: 'correct horse 1' };
}

(chromiumAvailable ? describe : describe.skip)('examples/embed-vite on another origin', () => {
  let workDir: string;
  let host: { server: Server; origin: string };
  /** The same build on an origin not in CONFAB_ALLOWED_ORIGINS. */
  let unlisted: { server: Server; origin: string };
  let confab: ConfabServer;
  let browser: Browser;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'confab-embed-'));
    const appDir = join(workDir, 'app');
    // The example as committed, without anything a local run left in it.
    await cp(exampleDir, appDir, {
      recursive: true,
      filter: (path) => !/[\\/](node_modules|dist|packages)([\\/]|$)|package-lock\.json$/.test(path.slice(exampleDir.length)),
    });
    await mkdir(join(appDir, 'packages'));
    for (const [folder, name] of [['client', 'confab-client.tgz'], ['chat-ui', 'confab-chat-ui.tgz']] as const) {
      await rename(await packPackage(folder, workDir), join(appDir, 'packages', name));
    }

    // The host's origin must be known before the server starts, and the server's URL before the build.
    host = await serveStatic(join(appDir, 'dist'));
    confab = await startServer({
      logger: false,
      inboundSmtp: 'off',
      port: 0,
      host: '127.0.0.1',
      dataDir: join(workDir, 'data'),
      allowedOrigins: [host.origin],
    });

    const environment = childEnvironment({ VITE_CONFAB_URL: confab.url });
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: appDir, env: environment, maxBuffer: 64 * 1024 * 1024 });
    // `npm run build` type-checks main.tsx against the published .d.ts files, then builds.
    await run('npm', ['run', 'build'], { cwd: appDir, env: environment, maxBuffer: 64 * 1024 * 1024 });
    unlisted = await serveStatic(join(appDir, 'dist'));

    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await confab?.close();
    await new Promise((resolve) => (host?.server ? host.server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (unlisted?.server ? unlisted.server.close(resolve) : resolve(undefined)));
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it('keeps main.tsx within 15 lines', async () => {
    const lines = (await readFile(join(exampleDir, 'src/main.tsx'), 'utf8')).trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(15);
  });

  it('signs in, opens a chat, sends, receives live, and starts a chat from another origin', { timeout: 180_000 }, async () => {
    expect(new URL(host.origin).origin).not.toBe(new URL(confab.url).origin);
    const guest = new PocketBase(confab.url);
    const aliceAccount = newAccount('alice');
    const bobAccount = newAccount('bob');
    await guest.collection('users').create({ ...aliceAccount, passwordConfirm: aliceAccount.password });
    const bobRecord = await guest.collection('users').create({ ...bobAccount, passwordConfirm: bobAccount.password });
    const alice = new PocketBase(confab.url);
    await alice.collection('users').authWithPassword(aliceAccount.username, aliceAccount.password);
    const bob = new PocketBase(confab.url);
    await bob.collection('users').authWithPassword(bobAccount.username, bobAccount.password);
    const chat = await alice.collection('chats').create({ name: 'Embedded launch', description: '', participants: [bobRecord.id] });

    const context = await browser.newContext({ baseURL: host.origin });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const corsAnswers: Array<string | null> = [];
    page.on('response', (response) => {
      // fetch and XHR are CORS requests; images and downloads are not.
      const kind = response.request().resourceType();
      if (response.url().startsWith(`${confab.url}/api/`) && (kind === 'fetch' || kind === 'xhr')) corsAnswers.push(response.headers()['access-control-allow-origin'] ?? null);
    });

    // The sign-in screen, straight from @confab/chat-ui.
    await page.goto('/');
    await page.getByLabel('Username', { exact: true }).fill(aliceAccount.username);
    await page.getByLabel('Password', { exact: true }).fill(aliceAccount.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Select a chat to get started').waitFor();

    // The chat screen: opened from the sidebar, connected over the WebSocket.
    await page.getByText('Embedded launch').first().click();
    await page.waitForURL(`**/chat/${chat.id}`);
    await page.getByText('Connected', { exact: true }).waitFor();

    const input = page.getByLabel('Message', { exact: true });
    await input.fill('Hello from the embedding site');
    await input.press('Enter');
    await page.getByText('Hello from the embedding site', { exact: true }).waitFor();
    await expect
      .poll(async () => JSON.stringify(await bob.collection('messages').getFullList({ filter: `chat = "${chat.id}"` })), { timeout: 15_000 })
      .toContain('Hello from the embedding site');

    // Bob writes through the API; it appears live on the embedding page.
    await bob.collection('messages').create({ chat: chat.id, encryptedContent: 'Welcome aboard, from Bob', message_type: 'regular' });
    await page.getByText('Welcome aboard, from Bob', { exact: true }).waitFor({ timeout: 15_000 });

    // /chat/new: the new-chat screen creates a chat and opens it.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL('**/chat/new');
    await page.getByLabel('Chat name').fill('Made on the embedding site');
    await page.getByRole('button', { name: 'Create Chat' }).click();
    await page.waitForURL(/\/chat\/[a-z0-9]{15}$/);
    await page.getByText('Connected', { exact: true }).waitFor();

    // Every API answer the page read named its origin; nothing was blocked on the way.
    expect(corsAnswers.length).toBeGreaterThan(0);
    expect(new Set(corsAnswers)).toEqual(new Set([host.origin]));
    expect(problems.filter((text) => /CORS|Access-Control|blocked/i.test(text))).toEqual([]);
    await context.close();
  });

  it('tells a site on an origin the server does not list why signing in fails', { timeout: 60_000 }, async () => {
    const account = newAccount('carol');
    await new PocketBase(confab.url).collection('users').create({ ...account, passwordConfirm: account.password });
    const context = await browser.newContext({ baseURL: unlisted.origin });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // The browser refused the server's answer (no CORS headers for this origin): the page cannot
    // tell that from a server that is down, so it names the server and the setting.
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`Cannot reach the Confab server at ${confab.url} — is this site's origin in CONFAB_ALLOWED_ORIGINS?`);
    await context.close();
  });
});
