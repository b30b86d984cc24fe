/**
 * Unread state in two browsers through the real server: Bob, away in another chat, sees Launch
 * Plan turn bold with its count (and the mention), opens it at the "New messages" divider, and
 * reading it there clears the count in his other tab too; a reload keeps what is unread.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('unread state between two people', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const signUp = (prefix: string) => accountOverApi(stack, prefix);

  /** The sidebar link of a chat, found by its accessible name (which carries the counts). */
  const chatLink = (page: Page, name: string | RegExp) => page.getByRole('navigation').getByRole('link', { name });

  it('shows unread chats in bold with their count, opens at the divider and clears everywhere once read', { timeout: 180_000 }, async () => {
    const ann = await signUp('ann');
    const bob = await signUp('bob');
    const launch = await ann.pb.collection('chats').create({ name: 'Launch Plan', participants: [bob.id] });
    const other = await ann.pb.collection('chats').create({ name: 'Coffee', participants: [bob.id] });
    const post = (chat: string, content: string) => ann.pb.collection('messages').create({ chat, content });
    // History Bob has read: on his first visit everything before counts as read once on screen.
    for (let index = 1; index <= 30; index += 1) await post(launch.id, `Earlier line ${index}`);
    await bob.pb.send(`/api/chats/${launch.id}/read`, { method: 'POST', body: { seq: 30 } });

    const bobTab = await stack.signIn(bob.account);
    const bobSecondTab = await bobTab.context.newPage();
    await bobSecondTab.goto('/');
    await bobTab.page.goto(`/chat/${other.id}`);
    await bobTab.page.getByText('Connected', { exact: true }).waitFor();
    await expect.poll(() => chatLink(bobTab.page, 'Launch Plan').count()).toBe(1);

    // Ann writes while Bob is in Coffee: Launch Plan turns bold with "1 unread", live.
    await post(launch.id, 'First of the new ones');
    const unreadOne = chatLink(bobTab.page, 'Launch Plan, 1 unread');
    await unreadOne.waitFor();
    const weight = await unreadOne.evaluate((link) => {
      const name = link.querySelector('[class*="name"]') ?? link;
      return Number(getComputedStyle(name).fontWeight);
    });
    expect(weight).toBeGreaterThanOrEqual(600);
    await post(launch.id, `@${bob.account.username} can you check the budget?`);
    await chatLink(bobTab.page, 'Launch Plan, 2 unread, 1 mention').waitFor();
    await chatLink(bobSecondTab, 'Launch Plan, 2 unread, 1 mention').waitFor();

    // A reload keeps it: the counts are the server's.
    await bobTab.page.reload();
    await chatLink(bobTab.page, 'Launch Plan, 2 unread, 1 mention').waitFor();

    // Bob opens it: the divider sits right above the first new message.
    await chatLink(bobTab.page, 'Launch Plan, 2 unread, 1 mention').click();
    await bobTab.page.waitForURL(`**/chat/${launch.id}`);
    const divider = bobTab.page.getByRole('separator', { name: 'New messages' });
    await divider.waitFor();
    const dividerBox = await divider.boundingBox();
    const firstNew = await bobTab.page.getByText('First of the new ones', { exact: true }).boundingBox();
    const lastOld = await bobTab.page.getByText('Earlier line 30', { exact: true }).boundingBox();
    expect(dividerBox && firstNew && lastOld).toBeTruthy();
    expect(lastOld!.y).toBeLessThan(dividerBox!.y);
    expect(dividerBox!.y).toBeLessThan(firstNew!.y);

    // Read on screen in a visible tab: the server's position moves and the other tab's count goes.
    await expect.poll(async () => (await bob.pb.collection('chats').getOne(launch.id))['unread_count'], { timeout: 10_000 }).toBe(0);
    await chatLink(bobSecondTab, 'Launch Plan').waitFor();
    expect(await chatLink(bobSecondTab, /unread/).count()).toBe(0);

    await bobTab.context.close();
  });
});
