/**
 * Two people in two browser contexts chat live through the real server; one loses the network,
 * the other keeps talking, and after reconnecting the first sees everything, in order, with no
 * duplicates — the same list the server holds.
 */
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createChatInBrowser, describeBrowser, newAccount, startStack, type Stack } from './harness';
import { startNetworkCut, type NetworkCut } from './networkCut';

describeBrowser('live chat between two browsers', () => {
  let stack: Stack;
  let cut: NetworkCut;
  beforeAll(async () => {
    stack = await startStack();
    cut = await startNetworkCut(new URL(stack.baseUrl));
  });
  afterAll(async () => {
    await cut?.close();
    await stack?.stop();
  });

  async function signUp(baseUrl: string) {
    const account = newAccount('chat');
    const pb = new PocketBase(stack.baseUrl);
    const record = await pb.collection('users').create({ ...account, passwordConfirm: account.password });
    const { context, page } = await stack.signIn(account, { baseURL: baseUrl });
    return { account, id: record.id, page, context };
  }

  async function say(page: Page, text: string) {
    const input = page.getByLabel('Message', { exact: true });
    await input.fill(text);
    await input.press('Enter');
  }

  /** The message bodies the page shows, top to bottom. */
  async function shownBodies(page: Page, candidates: string[]): Promise<string[]> {
    const found: Array<{ text: string; top: number }> = [];
    for (const text of candidates) {
      const locator = page.getByText(text, { exact: true });
      const count = await locator.count();
      for (let index = 0; index < count; index += 1) {
        const box = await locator.nth(index).boundingBox();
        if (box) found.push({ text, top: box.y });
      }
    }
    return found.sort((a, b) => a.top - b.top).map((entry) => entry.text);
  }

  it('creates a chat, talks live, and loses nothing across a network cut', { timeout: 180_000 }, async () => {
    // Alice's browser reaches the server through a cable the test can pull.
    const alice = await signUp(cut.url);
    const bob = await signUp(stack.baseUrl);

    const chatId = await createChatInBrowser(alice.page, 'Launch plan');
    await alice.page.getByText('Connected', { exact: true }).waitFor();

    // Add Bob through the record API (the invite screen arrives with the invitations issue).
    const pb = new PocketBase(stack.baseUrl);
    await pb.collection('users').authWithPassword(alice.account.username, alice.account.password);
    await pb.collection('chats').update(chatId, { 'participants+': bob.id });

    // Bob's sidebar gets the chat live; he opens it.
    await bob.page.getByText('Launch plan').first().click();
    await bob.page.waitForURL(`**/chat/${chatId}`);
    await bob.page.getByText('Connected', { exact: true }).waitFor();

    await say(alice.page, 'Hi Bob, ready for launch?');
    await bob.page.getByText('Hi Bob, ready for launch?', { exact: true }).waitFor();
    await say(bob.page, 'Ready when you are');
    await alice.page.getByText('Ready when you are', { exact: true }).waitFor();

    // Alice loses her network; Bob keeps talking.
    cut.unplug();
    await alice.page.getByText('Connection Lost - Messages may not send').waitFor({ timeout: 45_000 });
    const whileAway = ['First while you were away', 'Second while you were away', 'Third while you were away'];
    for (const text of whileAway) await say(bob.page, text);
    await bob.page.getByText(whileAway[2]!, { exact: true }).waitFor();

    // The network comes back: Alice reconnects and catches up, in order, with no duplicates.
    cut.plug();
    await alice.page.getByText('Connected', { exact: true }).waitFor({ timeout: 45_000 });
    await alice.page.getByText(whileAway[2]!, { exact: true }).waitFor();
    await say(alice.page, 'Back online');
    await bob.page.getByText('Back online', { exact: true }).waitFor();

    const expected = ['Hi Bob, ready for launch?', 'Ready when you are', ...whileAway, 'Back online'];
    const serverLog = await pb.collection('messages').getFullList({ filter: pb.filter('chat = {:chat}', { chat: chatId }), sort: 'seq' });
    // Bob's addition is told by a system line first (docs/CONTRACTS.md, File messages and system lines).
    expect(serverLog.map((message) => message['content'])).toEqual([`${alice.account.username} added ${bob.account.username}`, ...expected]);
    expect(await shownBodies(alice.page, expected)).toEqual(expected);
    expect(await shownBodies(bob.page, expected)).toEqual(expected);

    await alice.context.close();
    await bob.context.close();
  });
});
