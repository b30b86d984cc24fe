/**
 * The message list reads like a chat app's, on a phone (390×844) through the real server: Ann's
 * three quick messages sit under one name, a 'Today' divider opens the day, every time label
 * carries the exact date and time, nothing scrolls sideways (list, message actions, composer),
 * and axe finds no serious violation.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accountOverApi, describeBrowser, expectNoSeriousAxeViolations, startStack, type Stack } from './harness';

const phone = { width: 390, height: 844 };

describeBrowser('the message list on a phone', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** True when the page or `selector`'s element scrolls sideways. */
  const overflowsSideways = (page: Page, selector: string) =>
    page.evaluate((listSelector) => {
      const root = document.documentElement;
      const list = document.querySelector(listSelector);
      return root.scrollWidth > root.clientWidth || (list !== null && list.scrollWidth > list.clientWidth);
    }, selector);

  it('groups quick messages under one name, opens the day with a divider and fits a phone', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Standup', participants: [bob.id] });
    for (const content of ['Morning all', 'Build is green', 'Shipping the phone layout today']) {
      await ann.pb.collection('messages').create({ chat: chat.id, content });
    }
    await bob.pb.collection('messages').create({ chat: chat.id, content: 'Great, I will review it before lunch' });
    await ann.pb.collection('messages').create({ chat: chat.id, content: 'Thanks!' });

    const { context, page } = await stack.signIn(bob.account, { viewport: phone });
    await page.goto(`/chat/${chat.id}`);
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByText('Thanks!', { exact: true }).waitFor();

    // One day divider, 'Today', before the first message.
    await expect(log.getByRole('separator', { name: 'Today' }).count()).resolves.toBe(1);

    // Ann's three quick messages: three articles named after her, her name shown once above them.
    const annName = new RegExp(`^${ann.account.username}$`);
    await expect(log.getByRole('article', { name: annName }).count()).resolves.toBe(4);
    const shownNames = await log.locator('.cf-message__author').allTextContents();
    expect(shownNames).toEqual([ann.account.username, bob.account.username, ann.account.username]);

    // Every time label: a machine-readable datetime and the full date and time as its title.
    const times = log.locator('time[datetime]:not(.cf-day-divider__label)');
    expect(await times.count()).toBeGreaterThanOrEqual(5);
    const first = times.first();
    expect(await first.getAttribute('title')).toMatch(/^\w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2}\s[AP]M$/);
    expect(Number.isNaN(Date.parse((await first.getAttribute('datetime')) ?? ''))).toBe(false);

    // A grouped message shows its time of day in the avatar's place while hovered.
    const grouped = log.getByRole('article', { name: annName }).nth(1);
    await grouped.hover();
    const gutterTime = grouped.locator('.cf-message__time--gutter');
    await expect.poll(() => gutterTime.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    expect(await gutterTime.getAttribute('title')).toMatch(/ at \d{1,2}:\d{2}\s[AP]M$/);

    // Nothing scrolls sideways: the list, Bob's message actions shown by the keyboard, the composer.
    expect(await overflowsSideways(page, '.cf-message-list')).toBe(false);
    const own = log.getByRole('article', { name: new RegExp(`^${bob.account.username}$`) });
    await own.getByRole('button', { name: 'Edit' }).focus();
    const actions = own.getByRole('group', { name: 'Message actions' });
    const actionsBox = await actions.boundingBox();
    expect(actionsBox).not.toBeNull();
    expect(actionsBox!.x).toBeGreaterThanOrEqual(0);
    expect(actionsBox!.x + actionsBox!.width).toBeLessThanOrEqual(phone.width);
    const composer = await page.getByLabel('Message', { exact: true }).boundingBox();
    expect(composer).not.toBeNull();
    expect(composer!.x + composer!.width).toBeLessThanOrEqual(phone.width);
    expect(await overflowsSideways(page, '.cf-message-list')).toBe(false);

    await expectNoSeriousAxeViolations(page, '/chat/:id (phone, grouped messages)');
    await context.close();
  });
});
