/**
 * examples/embed-vite as a stranger to this repository gets it: the packed tarballs of
 * @confab/client and @confab/chat-ui installed with npm into a copy of the example outside the
 * workspace, built with Vite, served from one origin, talking to a real confab-server on another
 * (CONFAB_ALLOWED_ORIGINS, CORS). The example is the chat-ui README's first one: ConfabApp, the
 * whole product, under /team-chat in a 450 px box below the host's header. In Chromium: a
 * newcomer registers, creates a chat, allows developer agents and gets an agent's answer; every
 * sidebar entry and chat header button shows its screen; the host's title comes back when the
 * host takes Confab off the page. And: sign in, send, and receive a message posted live; served
 * from an origin the server does not list, the sign-in screen says so instead of 'Login failed.
 * Please try again.'
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import PocketBase from 'pocketbase';
import { chromium, type Browser, type Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { connectAgent, type AgentConnection, type AgentWebSocketConstructor } from '@confab/client/agent';
import type { AgentKeyAnswer } from '@confab/client/protocol';
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
  let distDir: string;
  const agents: AgentConnection[] = [];

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
    distDir = join(appDir, 'dist');
    host = await serveStatic(distDir);
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
    await Promise.all(agents.map((agent) => agent.close()));
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

    // The sign-in screen, straight from @confab/chat-ui, under the host's /team-chat.
    await page.goto('/team-chat/login');
    await page.getByLabel('Username', { exact: true }).fill(aliceAccount.username);
    await page.getByLabel('Password', { exact: true }).fill(aliceAccount.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Select a chat to get started').waitFor();

    // The chat screen: opened from the sidebar, connected over the WebSocket.
    await page.getByText('Embedded launch').first().click();
    await page.waitForURL(`**/team-chat/chat/${chat.id}`);
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
    await page.waitForURL('**/team-chat/chat/new');
    await page.getByLabel('Chat name').fill('Made on the embedding site');
    await page.getByRole('button', { name: 'Create Chat' }).click();
    await page.waitForURL(/\/team-chat\/chat\/[a-z0-9]{15}$/);
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
    await page.goto('/team-chat/login');
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

  it('is the whole product in a 450 px box: a newcomer registers, chats with a developer agent, and every screen renders', { timeout: 300_000 }, async () => {
    const context = await browser.newContext({ baseURL: host.origin, viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const box = page.locator('#confab');
    const app = box.locator('.confab-root');
    const sidebar = app.getByRole('complementary', { name: 'Sidebar' });
    const heading = (name: string | RegExp) => app.getByRole('heading', { level: 1, name });
    // The host page never scrolls: Confab stays inside its box, whatever the screen.
    const expectNoPageScroll = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight && window.scrollY === 0)).toBe(true);

    await page.goto('/team-chat/');
    expect(await page.title()).toBe('Acme intranet');
    await page.getByRole('banner').getByText('Acme intranet').waitFor();
    await heading(/Your team and your AI agents/).waitFor();
    await expectNoPageScroll();

    // A newcomer: Sign In, then Create an account, all under /team-chat.
    await app.getByRole('link', { name: 'Sign In' }).first().click();
    await page.waitForURL('**/team-chat/login');
    await app.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/team-chat/register');
    const newcomer = newAccount('newcomer');
    await app.getByLabel('Email', { exact: true }).fill(newcomer.email);
    await app.getByLabel('Username', { exact: true }).fill(newcomer.username);
    await app.getByLabel('Password', { exact: true }).fill(newcomer.password);
    await app.getByLabel('Confirm Password', { exact: true }).fill(newcomer.password);
    await app.getByRole('button', { name: 'Create Account' }).click();
    await app.getByText('Select a chat to get started').waitFor();
    await expectNoPageScroll();

    // New Chat creates a chat and opens it; its name is the tab's title meanwhile (documentTitle).
    await sidebar.getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL('**/team-chat/chat/new');
    await heading('Create New Chat').waitFor();
    await app.getByLabel('Chat name').fill('Box chat');
    await app.getByRole('button', { name: 'Create Chat' }).click();
    await page.waitForURL(/\/team-chat\/chat\/[a-z0-9]{15}$/);
    const chatPath = new URL(page.url()).pathname;
    const chatId = chatPath.split('/').at(-1)!;
    await heading('Box chat').waitFor();
    await expect.poll(() => page.title()).toBe('Box chat - Confab');

    // Confab fills the 450 px box (inside its border), the message input is whole inside it, and
    // the page still does not scroll.
    const input = app.getByRole('combobox', { name: 'Message' });
    await input.waitFor();
    const boxArea = (await app.boundingBox())!;
    const inputArea = (await input.boundingBox())!;
    expect(boxArea.height).toBe(450);
    expect(inputArea.y).toBeGreaterThanOrEqual(boxArea.y);
    expect(inputArea.y + inputArea.height).toBeLessThanOrEqual(boxArea.y + boxArea.height);
    await expectNoPageScroll();

    // A developer agent of the newcomer's, run here with the SDK against the same server.
    const pb = new PocketBase(confab.url);
    await pb.collection('users').authWithPassword(newcomer.username, newcomer.password);
    const agentUsername = `echo_${Date.now().toString(36)}`;
    const created = await fetch(`${confab.url}/api/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pb.authStore.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Echo', username: agentUsername, description: 'Says it back.' }),
    });
    expect(created.status).toBe(200);
    const { api_key: apiKey } = (await created.json()) as AgentKeyAnswer;
    const agent = connectAgent({ url: confab.url, apiKey, WebSocket: WebSocket as unknown as AgentWebSocketConstructor, logger: { error: () => {} } });
    agents.push(agent);
    agent.onMention(async (mention, reply) => {
      await reply.send(`Echo: ${mention.content.replace(`@${agentUsername}`, '').trim()}`);
    });
    await agent.ready;

    // Chat Options: developer agents are off in a new chat; the newcomer allows them.
    await app.getByRole('button', { name: 'Chat Options' }).click();
    await page.waitForURL(`**${chatPath}/options`);
    await heading('Chat Options').waitFor();
    const developerAgents = app.getByRole('switch', { name: 'Developer agents' });
    expect(await developerAgents.isChecked()).toBe(false);
    await developerAgents.click();
    await expect.poll(async () => (await pb.collection('chats').getOne(chatId))['agent_permissions']?.['developer_agents']).toBe(true);

    // Back in the chat: the agent is mentioned and its answer shows.
    await sidebar.getByRole('link', { name: /Box chat/ }).click();
    await page.waitForURL(`**${chatPath}`);
    await heading('Box chat').waitFor();
    await input.click();
    await input.pressSequentially(`@${agentUsername} `);
    await input.pressSequentially('hello from the box');
    await input.press('Enter');
    await app.getByRole('article', { name: 'Echo (Agent)' }).filter({ hasText: 'Echo: hello from the box' }).waitFor({ timeout: 20_000 });
    await expectNoPageScroll();

    // Every chat header button shows its screen (a page with its heading, or a dialog).
    for (const [button, screenHeading, path] of [
      ['Invite User', 'Invite User', '/invite'],
      ['View Drops', 'Drops', '/drops'],
      ['Chat Options', 'Chat Options', '/options'],
    ] as const) {
      await app.getByRole('button', { name: button }).click();
      await page.waitForURL(`**${chatPath}${path}`);
      await heading(screenHeading).waitFor();
      await expectNoPageScroll();
      await sidebar.getByRole('link', { name: /Box chat/ }).click();
      await heading('Box chat').waitFor();
    }
    for (const button of ['Chat Files', 'Create a Drop']) {
      await app.getByRole('button', { name: button }).click();
      const dialog = app.getByRole('dialog');
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').count()).toBeGreaterThan(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
    // The header's search (a field on a wide screen) filters the messages.
    const search = app.getByRole('searchbox', { name: 'Search messages' });
    await search.fill('from the box');
    await app.getByRole('article', { name: 'Echo (Agent)' }).waitFor();
    await search.fill('');

    // Every sidebar entry shows its screen inside the shell, and titles are only the chat's.
    for (const [entry, screenHeading, path] of [
      ['Drops Feed', 'Drops', '/drops'],
      ['My Profile', 'My Profile', '/profile'],
      ['My Agents', 'My Agents', '/agents'],
      ['Confab Agents', 'Confab Agents Management', '/admin/confab-agents'],
      ['New Chat', 'Create New Chat', '/chat/new'],
    ] as const) {
      await sidebar.getByRole('button', { name: new RegExp(`^${entry}`) }).click();
      await page.waitForURL(`**/team-chat${path}`);
      await heading(screenHeading).waitFor();
      await expectNoPageScroll();
    }
    await expect.poll(() => page.title()).not.toBe('Box chat - Confab');
    await sidebar.getByRole('link', { name: /Box chat/ }).click();
    await heading('Box chat').waitFor();
    await expect.poll(() => page.title()).toBe('Box chat - Confab');

    // The host takes Confab off its page: the host's own title is back.
    await page.getByRole('button', { name: 'Close team chat' }).click();
    await app.waitFor({ state: 'detached' });
    expect(await page.title()).toBe('Acme intranet');

    // Logout, last: back at the sign-in screen, still under /team-chat.
    await page.goto(chatPath);
    await heading('Box chat').waitFor();
    await sidebar.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/team-chat/login');
    await heading('Sign In').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps the shell while a page's code is slow to arrive: only the main area shows a placeholder", { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ baseURL: host.origin });
    const page = await context.newPage();
    const account = newAccount('slow');
    await new PocketBase(confab.url).collection('users').create({ ...account, passwordConfirm: account.password });
    await page.goto('/team-chat/login');
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.waitFor();

    // The profile page's chunk takes two seconds.
    let released = false;
    await page.route(/\/assets\/Profile-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      released = true;
      await route.continue();
    });
    await sidebar.getByRole('button', { name: 'My Profile' }).click();
    const placeholder = page.getByRole('main').getByRole('status').filter({ hasText: 'Loading...' });
    await placeholder.waitFor();
    expect(released).toBe(false);
    expect(await sidebar.isVisible()).toBe(true);
    expect(await page.getByText('Loading Confab...').count()).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    expect(released).toBe(true);
    await context.close();
  });

  it("splits the consumer's build: the sign-in route does not download the chat screen", async () => {
    const assets = join(distDir, 'assets');
    const files = (await readdir(assets)).filter((file) => file.endsWith('.js'));
    const text = new Map(await Promise.all(files.map(async (file) => [file, await readFile(join(assets, file), 'utf8')] as const)));
    // A file's static imports, transitively: what loads with it (dynamic import() loads on demand).
    const closure = (start: string) => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file) || !text.has(file)) return;
        seen.add(file);
        for (const match of text.get(file)!.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) visit(match[1]!);
      };
      visit(start);
      return seen;
    };
    const html = await readFile(join(distDir, 'index.html'), 'utf8');
    const entry = /assets\/([\w.-]+\.js)/.exec(html)![1]!;
    const loginScreen = files.find((file) => text.get(file)!.includes('New to Confab?'))!;
    const chatScreen = files.filter((file) => text.get(file)!.includes('Failed to load this chat'));
    expect(loginScreen).toBeDefined();
    expect(chatScreen.length).toBeGreaterThan(0);
    const signIn = new Set([...closure(entry), ...closure(loginScreen)]);
    expect(signIn.size).toBeGreaterThan(1);
    for (const file of chatScreen) expect(signIn.has(file)).toBe(false);
  });
});
