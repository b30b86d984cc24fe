/**
 * Browser notifications through the real server in Chromium: Bob turns them on in My Profile (the
 * permission is asked on that click, granted by the browser context), hides the tab, and
 * Ann's mention of him shows a real Notification with the chat's name and the message; clicking it
 * opens the chat at that message. A message that does not concern him shows nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

/**
 * Wraps the page's Notification so the test can see what was shown: the real API is still called
 * (the browser's own permission and constructor), the wrapper only records. Headless Chromium
 * never hides a tab (not even behind another one), so the page's visibility is the test's to set.
 */
const recordNotifications = () => {
  const page = window as unknown as { pageHidden?: boolean };
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => page.pageHidden === true });
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (page.pageHidden === true ? 'hidden' : 'visible') });
  const Real = window.Notification;
  const shown: Array<{ title: string; body: string | undefined; tag: string | undefined; hidden: boolean }> = [];
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      shown.push({ title, body: options?.body, tag: options?.tag, hidden: document.hidden });
      (window as unknown as { lastNotification: Notification }).lastNotification = this;
    }
  }
  (window as unknown as { shownNotifications: typeof shown }).shownNotifications = shown;
  window.Notification = Recording;
};

describeBrowser('browser notifications', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('notifies of a mention while the tab is hidden, and opens the chat at it on a click', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Launch Plan', participants: [bob.id] });
    const coffee = await ann.pb.collection('chats').create({ name: 'Coffee', participants: [bob.id] });
    const post = (content: string) => ann.pb.collection('messages').create({ chat: chat.id, content });

    const { context, page } = await stack.signIn(bob.account, { permissions: ['notifications'] });
    await context.addInitScript(recordNotifications);
    await page.goto('/profile');
    const turnOn = page.getByRole('button', { name: 'Turn on browser notifications' });
    await turnOn.click();
    await page.getByText('Browser notifications are on for this device.').waitFor();
    await expect.poll(() => page.evaluate(() => Notification.permission)).toBe('granted');

    // Bob is in another chat; the header says when the socket is live.
    await page.goto(`/chat/${coffee.id}`);
    await page.getByText('Connected', { exact: true }).waitFor();
    // Bob switches to another tab: this one is hidden.
    await page.evaluate(() => {
      (window as unknown as { pageHidden: boolean }).pageHidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await page.evaluate(() => document.hidden)).toBe(true);

    await post('Just a status line, nothing for Bob');
    await page.getByRole('navigation').getByRole('link', { name: 'Launch Plan, 1 unread' }).waitFor();
    const mention = await post(`@${bob.account.username} can you check the **budget**?`);
    await page.getByRole('navigation').getByRole('link', { name: 'Launch Plan, 2 unread, 1 mention' }).waitFor();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shownNotifications: unknown[] }).shownNotifications)).toEqual([
      { title: 'Launch Plan', body: `${ann.account.username}: @${bob.account.username} can you check the budget?`, tag: chat.id, hidden: true },
    ]);

    // A click on it (the operating system's; here its handler) brings the chat up at the message.
    await page.evaluate(() => (window as unknown as { lastNotification: Notification }).lastNotification.onclick?.(new Event('click')));
    await page.waitForURL(`**/chat/${chat.id}?message=${mention.id}`);
    await page.getByText('can you check the', { exact: false }).first().waitFor();
    await context.close();
  });
});
