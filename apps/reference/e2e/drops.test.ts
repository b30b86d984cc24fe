/**
 * Drops end to end (docs/CONTRACTS.md, Drops): Alice publishes a drop from her chat through the
 * Create a Drop modal and lands on it; Bob, who is not in the chat, finds it on Discover, follows
 * the chat, sees it on Following, likes and bookmarks it (the server agrees after a reload), and
 * finds it under Saved and un-bookmarks it there, gets Alice's next drop live behind 'New drops'; a
 * like the server refuses is rolled back.
 */
import PocketBase from 'pocketbase';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChatInBrowser, describeBrowser, newAccount, startStack, type Stack } from './harness';

describeBrowser('drops in Chromium', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function signUp(prefix: string) {
    const account = newAccount(prefix);
    await new PocketBase(stack.baseUrl).collection('users').create({ ...account, passwordConfirm: account.password });
    const { context, page } = await stack.signIn(account);
    return { account, page, context };
  }

  /** Fills and submits the Create a Drop modal, checking its counters on the way. */
  async function publish(page: Page, title: string, content: string) {
    const dialog = page.getByRole('dialog', { name: 'Create a Drop' });
    await dialog.waitFor();
    const titleField = dialog.getByLabel('Title', { exact: true });
    const contentField = dialog.getByLabel('Content', { exact: true });
    expect(await dialog.getByText('0/100').count()).toBe(1);
    expect(await dialog.getByText('0/2000').count()).toBe(1);
    await titleField.fill(title);
    await contentField.fill(content);
    await dialog.getByText(`${title.length}/100`, { exact: true }).waitFor();
    await dialog.getByText(`${content.length}/2000`, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Create Drop' }).click();
  }

  const card = (page: Page, title: string) => page.getByRole('article', { name: title });
  const likeOf = (page: Page, title: string) => card(page, title).getByRole('button', { name: /^Like \d+$/ });
  const bookmarkOf = (page: Page, title: string) => card(page, title).getByRole('button', { name: 'Bookmark' });

  it('publish, discover, follow, like, bookmark, live new drops, and a refused like rolled back', { timeout: 180_000 }, async () => {
    const alice = await signUp('alice');
    const bob = await signUp('bob');

    // Alice makes a chat and publishes from its header.
    const chatId = await createChatInBrowser(alice.page, 'Launch plan');
    await alice.page.getByRole('button', { name: 'Create a Drop' }).click();
    // Escape closes the modal; the button opens it again.
    await alice.page.getByRole('dialog', { name: 'Create a Drop' }).waitFor();
    await alice.page.keyboard.press('Escape');
    await alice.page.getByRole('dialog', { name: 'Create a Drop' }).waitFor({ state: 'detached' });
    await alice.page.getByRole('button', { name: 'Create a Drop' }).click();
    await publish(alice.page, 'Launch checklist', 'We ship on **Monday**. #launch #checklist\n\n<img src=x onerror="window.__xss = 1">');
    await alice.page.waitForURL('**/drops/launch-checklist');
    await alice.page.getByRole('heading', { level: 1, name: 'Launch checklist' }).waitFor();
    const aliceArticle = alice.page.getByRole('article', { name: 'Launch checklist' });
    expect(await aliceArticle.locator('strong').filter({ hasText: 'Monday' }).count()).toBe(1);
    expect(await alice.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await aliceArticle.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    expect(await alice.page.title()).toBe('Launch checklist - Drops - Confab');

    // Bob is not in the chat: he finds the drop, and the chat, on Discover.
    await bob.page.getByRole('complementary', { name: 'Sidebar' }).getByRole('button', { name: 'Drops Feed' }).click();
    await bob.page.waitForURL('**/drops');
    await bob.page.getByText('0 drops from chats you follow').waitFor();
    await bob.page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Discover' }).click();
    await bob.page.waitForURL('**/drops/discover');
    await bob.page.getByText('1 drop to discover').waitFor();
    await card(bob.page, 'Launch checklist').waitFor();
    expect(await card(bob.page, 'Launch checklist').textContent()).toContain('Launch plan');
    const toFollow = bob.page.getByRole('region', { name: 'Chats to follow' });
    await toFollow.getByRole('button', { name: 'Follow Launch plan' }).click();
    await toFollow.getByRole('button', { name: 'Following Launch plan' }).waitFor();

    // Following now holds it; Bob likes and bookmarks it.
    await bob.page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: /^Following/ }).click();
    await bob.page.waitForURL(/\/drops$/);
    await bob.page.getByText('1 drop from chats you follow').waitFor();
    await likeOf(bob.page, 'Launch checklist').click();
    await card(bob.page, 'Launch checklist').getByRole('button', { name: 'Like 1', pressed: true }).waitFor();
    await bookmarkOf(bob.page, 'Launch checklist').click();
    await card(bob.page, 'Launch checklist').getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();
    // Settled (nothing in flight) before the reload.
    await bob.page.waitForFunction(() => document.querySelectorAll('[aria-disabled="true"].cf-drop-reaction').length === 0);

    // The server agrees after a reload, on the feed and on the drop itself.
    await bob.page.reload();
    await card(bob.page, 'Launch checklist').getByRole('button', { name: 'Like 1', pressed: true }).waitFor();
    await card(bob.page, 'Launch checklist').getByRole('button', { name: 'Bookmark', pressed: true }).waitFor();
    await card(bob.page, 'Launch checklist').getByRole('link', { name: 'Launch checklist' }).click();
    await bob.page.waitForURL('**/drops/launch-checklist');
    const stats = bob.page.getByRole('list', { name: 'Stats' });
    await stats.waitFor();
    expect(await stats.textContent()).toContain('1 like');
    expect(await bob.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    const pb = new PocketBase(stack.baseUrl);
    await pb.collection('users').authWithPassword(bob.account.username, bob.account.password);
    const fromServer = await pb.send<{ like_count: number; is_liked: boolean; is_bookmarked: boolean }>('/api/drops/launch-checklist', {});
    expect(fromServer).toMatchObject({ like_count: 1, is_liked: true, is_bookmarked: true });
    await bob.page.goBack();
    await bob.page.getByText('1 drop from chats you follow').waitFor();

    // Saved lists what Bob bookmarked; un-bookmarking there takes it out, and the server agrees.
    await bob.page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Saved' }).click();
    await bob.page.waitForURL('**/drops/bookmarks');
    await bob.page.getByText('1 saved drop').waitFor();
    await bookmarkOf(bob.page, 'Launch checklist').click();
    await bob.page.getByRole('heading', { name: 'No saved drops yet.' }).waitFor();
    expect(await pb.send<{ drops: unknown[] }>('/api/drops/bookmarks', {})).toMatchObject({ drops: [] });
    await bob.page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: /^Following/ }).click();
    await bob.page.waitForURL(/\/drops$/);
    await bob.page.getByText('1 drop from chats you follow').waitFor();

    // Alice publishes again, from the chat's drops; Bob gets it live.
    await alice.page.getByRole('article', { name: 'Launch checklist' }).getByRole('link', { name: 'Launch plan' }).click();
    await alice.page.waitForURL(`**/chat/${chatId}/drops`);
    await alice.page.getByRole('heading', { level: 1, name: 'Launch plan Drops' }).waitFor();
    expect(await alice.page.title()).toBe('Launch plan - Drops - Confab');
    await alice.page.getByRole('button', { name: 'Create Drop' }).click();
    await publish(alice.page, 'Rollback plan', 'If the migration misbehaves, we roll back within ten minutes.');
    await alice.page.waitForURL('**/drops/rollback-plan');

    const live = bob.page.getByRole('button', { name: 'New drops' });
    await live.waitFor();
    expect(await bob.page.getByRole('navigation', { name: 'Feeds' }).getByRole('link', { name: 'Following (1 new)' }).count()).toBe(1);
    // Not on the page until asked for: no reload happened.
    expect(await card(bob.page, 'Rollback plan').count()).toBe(0);
    await live.click();
    await card(bob.page, 'Rollback plan').waitFor();
    await bob.page.getByText('2 drops from chats you follow').waitFor();
    const order = await bob.page.getByRole('article').evaluateAll((articles) => articles.map((article) => article.querySelector('h3')?.textContent));
    expect(order).toEqual(['Rollback plan', 'Launch checklist']);

    // A like the server refuses is shown at once, then rolled back without a message.
    let refused = 0;
    await bob.page.route('**/api/drops/*/like', async (route) => {
      refused += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: 500, message: 'Something went wrong.', data: {} }) });
    });
    await likeOf(bob.page, 'Rollback plan').click();
    await card(bob.page, 'Rollback plan').getByRole('button', { name: 'Like 1', pressed: true }).waitFor();
    await card(bob.page, 'Rollback plan').getByRole('button', { name: 'Like 0', pressed: false }).waitFor();
    expect(refused).toBe(1);
    expect(await bob.page.getByRole('alert').count()).toBe(0);
    await bob.page.unroute('**/api/drops/*/like');
    const rollback = await pb.send<{ like_count: number; is_liked: boolean }>('/api/drops/rollback-plan', {});
    expect(rollback).toMatchObject({ like_count: 0, is_liked: false });

    await alice.context.close();
    await bob.context.close();
  });
});
