/**
 * axe-core on every screen of the reference app (docs/STYLE.md, Accessible by construction), in
 * Chromium against the real server: the public screens signed out, then each screen a signed-in
 * user reaches — chats, a chat with a message, its options, invite, files and drops, the Create a
 * Drop modal, a drop, the feeds, profile, agents, admin — the main screens again in the dark theme,
 * and the shell on a phone. No serious or critical violation anywhere.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChatInBrowser, describeBrowser, expectNoSeriousAxeViolations, newAccount, registerInBrowser, startStack, type Stack } from './harness';

describeBrowser('accessibility of every screen (axe, Chromium)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true }).first().waitFor();

  it('signed-out screens: landing, sign in, register, password reset, join, complete signup', { timeout: 120_000 }, async () => {
    const { context, page } = await stack.newPage();
    const screens: Array<[path: string, ready: () => Promise<void>]> = [
      ['/', () => page.getByRole('link', { name: 'Sign In' }).first().waitFor()],
      ['/login', () => heading(page, 'Sign In')],
      ['/register', () => heading(page, 'Create Account')],
      ['/forgot-password', () => heading(page, 'Forgot Password')],
      ['/reset-password', () => page.getByRole('button', { name: 'Request New Reset' }).or(page.getByRole('link', { name: 'Request New Reset' })).first().waitFor()],
      ['/reset-password?token=not-a-real-token', () => page.getByLabel('New Password', { exact: true }).waitFor()],
      ['/join/not-a-real-token', () => heading(page, 'Unable to Join Chat')],
      ['/complete-signup?user_id=only', () => heading(page, 'Complete Your Signup')],
    ];
    for (const [path, ready] of screens) {
      await page.goto(path);
      await ready();
      await expectNoSeriousAxeViolations(page, path);
    }
    // A form's error state too: sign in with nothing filled in.
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').waitFor();
    await expectNoSeriousAxeViolations(page, '/login (validation error)');
    await context.close();
  });

  it('signed-in screens: chats, a chat and its options, invite, files, drops, profile, agents, admin', { timeout: 240_000 }, async () => {
    const { context, page } = await stack.newPage();
    const account = newAccount('a11y');
    await registerInBrowser(page, account);
    await expectNoSeriousAxeViolations(page, '/chat (no chat chosen)');

    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL('**/chat/new');
    await heading(page, 'Create New Chat');
    await expectNoSeriousAxeViolations(page, '/chat/new');

    const chatId = await createChatInBrowser(page, 'Accessible launch');
    await page.getByText('Connected', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (empty)');
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('Hello, **everyone**');
    await input.press('Enter');
    await page.getByText('everyone', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (with a message)');

    // The agent autocomplete open over the input.
    await input.fill('@de');
    await page.getByRole('listbox').waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (agent autocomplete)');
    await input.press('Escape');
    await input.fill('');

    await page.getByRole('button', { name: 'Chat Files' }).click();
    const files = page.getByRole('dialog', { name: 'Chat files' });
    await files.waitFor();
    await files.getByText('No files have been uploaded to this chat yet.').waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (files panel)');
    await page.keyboard.press('Escape');
    await files.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Create a Drop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a Drop' });
    await dialog.waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (Create a Drop)');
    await dialog.getByLabel('Title', { exact: true }).fill('Accessible checklist');
    await dialog.getByLabel('Content', { exact: true }).fill('Labels, names and **contrast**. #a11y');
    await dialog.getByRole('button', { name: 'Create Drop' }).click();
    await page.waitForURL('**/drops/accessible-checklist');
    await page.getByRole('heading', { level: 1, name: 'Accessible checklist' }).waitFor();
    await expectNoSeriousAxeViolations(page, '/drops/:slug');

    const screens: Array<[path: string, ready: () => Promise<void>]> = [
      [`/chat/${chatId}/options`, () => heading(page, 'Chat Options')],
      [`/chat/${chatId}/invite`, () => page.getByRole('button', { name: 'Create Share Link' }).waitFor()],
      [`/chat/${chatId}/drops`, () => page.getByRole('article', { name: 'Accessible checklist' }).waitFor()],
      ['/drops', () => page.getByRole('navigation', { name: 'Feeds' }).waitFor()],
      ['/drops/trending', () => page.getByRole('article', { name: 'Accessible checklist' }).waitFor()],
      ['/drops/discover', () => page.getByRole('navigation', { name: 'Feeds' }).waitFor()],
      ['/drops/bookmarks', () => page.getByRole('heading', { name: 'No saved drops yet.' }).waitFor()],
      ['/profile', () => heading(page, 'My Profile')],
      ['/agents', () => heading(page, 'My Agents')],
      ['/admin/confab-agents', () => heading(page, 'Confab Agents Management')],
      ['/complete-account', () => heading(page, 'Account Already Complete')],
    ];
    for (const [path, ready] of screens) {
      await page.goto(path);
      await ready();
      await expectNoSeriousAxeViolations(page, path);
    }
    await context.close();
  });

  it('in the dark theme (the app follows the system): sign in, register, the chat shell, a chat with a message, its options, the feeds', { timeout: 180_000 }, async () => {
    const { context, page } = await stack.newPage({ colorScheme: 'dark' });
    for (const [path, name] of [['/login', 'Sign In'], ['/register', 'Create Account']] as const) {
      await page.goto(path);
      await heading(page, name);
      await expectNoSeriousAxeViolations(page, `${path} (dark)`);
    }
    await registerInBrowser(page, newAccount('dark'));
    // The theme really is dark: the root's text colour is the dark theme's light text.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.confab-root')!).color)).toBe('rgb(236, 235, 245)');
    await expectNoSeriousAxeViolations(page, '/chat (dark)');
    const chatId = await createChatInBrowser(page, 'Night shift');
    await page.getByText('Connected', { exact: true }).waitFor();
    const input = page.getByLabel('Message', { exact: true });
    await input.fill('Lights **off**, [docs](https://example.com) and `code`');
    await input.press('Enter');
    await page.getByText('off', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (dark, with a message)');
    for (const [path, ready] of [
      [`/chat/${chatId}/options`, () => heading(page, 'Chat Options')],
      ['/drops', () => page.getByRole('navigation', { name: 'Feeds' }).waitFor()],
      ['/profile', () => heading(page, 'My Profile')],
    ] as Array<[string, () => Promise<void>]>) {
      await page.goto(path);
      await ready();
      await expectNoSeriousAxeViolations(page, `${path} (dark)`);
    }
    await context.close();
  });

  it('the shell on a phone: chat, open drawer, chat actions menu', { timeout: 120_000 }, async () => {
    const { context, page } = await stack.newPage({ viewport: { width: 390, height: 844 } });
    await registerInBrowser(page, newAccount('phone'));
    await expectNoSeriousAxeViolations(page, '/chat (phone)');
    await page.getByRole('button', { name: 'Open sidebar' }).first().click();
    await page.getByRole('button', { name: 'New Chat' }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat (phone, drawer open)');
    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.waitForURL('**/chat/new');
    await page.getByLabel('Chat name').fill('Pocket chat');
    await page.getByRole('button', { name: 'Create Chat' }).click();
    await page.waitForURL(/\/chat\/[a-z0-9]{15}$/);
    await page.getByText('Connected', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (phone)');
    await page.getByRole('button', { name: 'Chat actions' }).click();
    await page.getByRole('button', { name: 'Chat Options' }).waitFor();
    await expectNoSeriousAxeViolations(page, '/chat/:id (phone, actions menu)');
    await context.close();
  });
});
