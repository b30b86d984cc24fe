/**
 * Browser end-to-end harness: a real confab-server (from source) on port 0 with a fresh data
 * directory, serving the built reference app, driven by Debian's Chromium through playwright-core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PocketBase from 'pocketbase';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { startServer, type ConfabServer, type ServerOptions } from '@confab/server';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const webDir = fileURLToPath(new URL('../dist', import.meta.url));

/** Browser tests need Chromium and the built app; in CI their absence is a failure, not a skip. */
export const browserTestsAvailable = existsSync(chromiumPath) && existsSync(join(webDir, 'index.html'));
if (!browserTestsAvailable && process.env.CI) {
  throw new Error(`Browser tests need ${chromiumPath} and a built app in ${webDir} (run the README's test command).`);
}

/** `describe` for suites that need the browser and the built app (skipped locally without them). */
export function describeBrowser(name: string, body: () => void): void {
  (browserTestsAvailable ? describe : describe.skip)(name, body);
}

export interface Stack {
  server: ConfabServer;
  browser: Browser;
  baseUrl: string;
  dataDir: string;
  /** A page in a new browser context (its own cookies and storage) on the app. */
  newPage(options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** A new context signed in through the login screen as `account`, on the chat shell. */
  signIn(account: { username: string; password: string }, options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** Every mail in the outbox, oldest first, as raw RFC 822 text. */
  outbox(): Promise<string[]>;
  /** The server's clock (expiry of invitations, links and rate windows), which tests may move on. */
  clock: TestClock;
  stop(): Promise<void>;
}

export interface TestClock {
  now(): Date;
  /** Moves the server's clock forward (or back, with a negative value) by this many milliseconds. */
  advance(milliseconds: number): void;
  /** Back to the wall clock. */
  reset(): void;
}

function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(milliseconds) {
      offset += milliseconds;
    },
    reset() {
      offset = 0;
    },
  };
}

/**
 * Starts the stack. `serverOptions` adds to the server's options (for example `openaiBaseUrl` of a
 * local fake provider); the port, data directory, web directory and clock stay the harness's.
 */
export async function startStack(serverOptions: ServerOptions = {}): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'confab-e2e-'));
  const clock = testClock();
  // No inbound SMTP listener unless a test asks for one: parallel stacks must not fight over port 2525.
  const server = await startServer({ logger: false, inboundSmtp: 'off', ...serverOptions, port: 0, host: '127.0.0.1', dataDir, webDir, now: clock.now });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
      // The files panel's audio preview is played by the test, not by a user's click.
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  return {
    server,
    browser,
    baseUrl: server.url,
    dataDir,
    clock,
    async newPage(options = {}) {
      const context = await browser.newContext({ baseURL: server.url, ...options });
      const page = await context.newPage();
      return { context, page };
    },
    async signIn(account, options = {}) {
      const context = await browser.newContext({ baseURL: server.url, ...options });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('Username', { exact: true }).fill(account.username);
      await page.getByLabel('Password', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Select a chat to get started').waitFor();
      return { context, page };
    },
    async outbox() {
      const folder = join(dataDir, 'outbox');
      if (!existsSync(folder)) return [];
      const names = (await readdir(folder)).filter((name) => name.endsWith('.eml')).sort();
      return Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
    },
    async stop() {
      await browser.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The reset link of the newest mail, with quoted-printable soft breaks undone. */
export function resetLinkFrom(mail: string): string {
  const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = unfolded.match(/https?:\/\/[^\s"'<>]+\/reset-password\?token=[A-Za-z0-9_-]+/);
  if (!match) throw new Error(`no reset link in mail:\n${mail}`);
  return match[0];
}

/**
 * Registers `account` through the /register form (email, username, password twice) and waits for
 * the signed-in shell.
 */
export async function registerInBrowser(page: Page, account: { username: string; email: string; password: string }): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByText('Select a chat to get started').waitFor();
}

/** Creates a chat named `name` through New Chat and returns its id once its page is open. */
export async function createChatInBrowser(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'New Chat' }).click();
  await page.waitForURL('**/chat/new');
  await page.getByLabel('Chat name').fill(name);
  await page.getByRole('button', { name: 'Create Chat' }).click();
  await page.waitForURL(/\/chat\/[a-z0-9]{15}$/);
  return page.url().split('/').at(-1)!;
}

let counter = 0;
/** A fresh, valid account for each test. */
export function newAccount(prefix = 'user') {
  counter += 1;
  const suffix = `${Date.now().toString(36)}${counter}`;
  return {
    username: `${prefix}_${suffix}`,
    email: `${prefix}.${suffix}@example.com`,
    password: 'correct horse 1',
  };
}

/** A fresh account made through the record API, and a PocketBase client signed in as it (for setup and checks beside the browser). */
export async function accountOverApi(stack: Stack, prefix: string) {
  const account = newAccount(prefix);
  const pb = new PocketBase(stack.baseUrl);
  const record = await pb.collection('users').create({ ...account, passwordConfirm: account.password });
  await pb.collection('users').authWithPassword(account.username, account.password);
  return { account, id: record.id, pb };
}

/** axe-core's browser bundle, injected into pages by expectNoSeriousAxeViolations. */
let axeSource: string | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, listing
 * each with its rule, the element and axe's advice. Wait for the screen's content first; `screen`
 * names it in the failure (default: the page's path).
 */
export async function expectNoSeriousAxeViolations(page: Page, screen?: string): Promise<void> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated over the DevTools protocol, so the app's Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  })) as AxeViolation[];
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (serious.length === 0) return;
  const name = screen ?? new URL(page.url()).pathname;
  const report = serious
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${name}: ${violation.id} (${violation.impact}) ${violation.help}\n  at ${JSON.stringify(node.target)}\n  ${(node.failureSummary ?? '').replace(/\n/g, '\n  ')}`,
      ),
    )
    .join('\n');
  throw new Error(`serious or critical axe violations on ${name}:\n${report}`);
}
