/**
 * Edits and deletions between two browsers through the real server: Ann fixes a typo from the
 * keyboard and Bob sees it "(edited)" live; Ann deletes a message and it leaves Bob's chat; Bob,
 * no admin, is offered neither on Ann's messages; a reload shows the same.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('edits and deletions between two people', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const signUp = (prefix: string) => accountOverApi(stack, prefix);

  async function say(page: Page, text: string) {
    const input = page.getByLabel('Message', { exact: true });
    await input.fill(text);
    await input.press('Enter');
    await page.getByText(text, { exact: true }).waitFor();
  }

  it('edits from the keyboard show "(edited)" to the other person live; a deletion leaves both chats', { timeout: 180_000 }, async () => {
    const ann = await signUp('ann');
    const bob = await signUp('bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Launch Plan', participants: [bob.id] });
    const annTab = await stack.signIn(ann.account);
    const bobTab = await stack.signIn(bob.account);
    for (const tab of [annTab, bobTab]) {
      await tab.page.goto(`/chat/${chat.id}`);
      await tab.page.getByText('Connected', { exact: true }).waitFor();
    }

    await say(annTab.page, 'Lunch at 12 tomorow?');
    await say(annTab.page, 'Wrong chat, sorry');
    await bobTab.page.getByText('Wrong chat, sorry', { exact: true }).waitFor();

    // Ann edits from the keyboard: Edit on her message, fix the text, Enter.
    const typo = annTab.page.getByRole('article').filter({ hasText: 'Lunch at 12 tomorow?' });
    await typo.hover();
    await typo.getByRole('button', { name: 'Edit' }).click();
    const editor = annTab.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('Lunch at 12 tomorrow?');
    await editor.press('Enter');
    await annTab.page.getByText('Lunch at 12 tomorrow?', { exact: true }).waitFor();

    // Bob sees the new text, marked edited, without reloading.
    await bobTab.page.getByText('Lunch at 12 tomorrow?', { exact: true }).waitFor();
    const edited = bobTab.page.getByRole('article').filter({ hasText: 'Lunch at 12 tomorrow?' });
    await edited.getByText('(edited)').waitFor();
    expect(await bobTab.page.getByText('Lunch at 12 tomorow?', { exact: true }).count()).toBe(0);

    // Bob is not the author and no admin: neither Edit nor Delete on Ann's messages.
    await edited.hover();
    expect(await edited.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await edited.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // Ann deletes her other message after confirming: it leaves both chats.
    const wrong = annTab.page.getByRole('article').filter({ hasText: 'Wrong chat, sorry' });
    await wrong.hover();
    await wrong.getByRole('button', { name: 'Delete' }).click();
    await annTab.page.getByRole('group', { name: /Delete this message/ }).getByRole('button', { name: 'Delete', exact: true }).click();
    await annTab.page.getByText('Wrong chat, sorry', { exact: true }).waitFor({ state: 'detached' });
    await bobTab.page.getByText('Wrong chat, sorry', { exact: true }).waitFor({ state: 'detached' });

    // The server holds the same, and a reload shows it.
    const stored = await bob.pb.collection('messages').getFullList({ filter: bob.pb.filter('chat = {:chat}', { chat: chat.id }), sort: 'seq' });
    expect(stored.map((message) => [message['content'], message['edited_at'] !== '', message['deleted_at'] !== ''])).toEqual([
      ['Lunch at 12 tomorrow?', true, false],
      ['', false, true],
    ]);
    await bobTab.page.reload();
    await bobTab.page.getByText('Lunch at 12 tomorrow?', { exact: true }).waitFor();
    await bobTab.page.getByText('(edited)').waitFor();
    expect(await bobTab.page.getByText('Wrong chat, sorry', { exact: true }).count()).toBe(0);

    await annTab.context.close();
    await bobTab.context.close();
  });
});
