/**
 * Typing and presence between two browsers through the real server: while Ann types, Bob sees
 * "<ann> is typing…" under the messages; it clears when she sends. Bob sees Ann online in the
 * chat's people strip and in Chat Options.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('typing and presence between two people', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows Bob who is typing while Ann types, clears it when she sends, and marks Ann online', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Launch Plan', participants: [bob.id] });
    const annTab = await stack.signIn(ann.account);
    const bobTab = await stack.signIn(bob.account);
    for (const tab of [annTab, bobTab]) {
      await tab.page.goto(`/chat/${chat.id}`);
      await tab.page.getByText('Connected', { exact: true }).waitFor();
    }
    const typingLine = bobTab.page.getByRole('status', { name: 'Who is typing' });
    expect(await typingLine.textContent()).toBe('');

    // Ann types, without sending: Bob sees it.
    const annInput = annTab.page.getByLabel('Message', { exact: true });
    await annInput.pressSequentially('Lunch at 12', { delay: 30 });
    await typingLine.getByText(`${ann.account.username} is typing…`).waitFor();
    // Ann never sees her own typing.
    expect(await annTab.page.getByRole('status', { name: 'Who is typing' }).textContent()).toBe('');

    // She sends: the line clears at once, with her message.
    await annInput.press('Enter');
    await bobTab.page.getByText('Lunch at 12', { exact: true }).waitFor();
    await typingLine.getByText(/is typing/).waitFor({ state: 'detached', timeout: 2_000 });

    // Ann is online: marked in Bob's people strip and in Chat Options.
    const strip = bobTab.page.getByRole('list', { name: 'People in this chat' });
    await strip.getByRole('listitem').filter({ hasText: ann.account.username }).getByText('online').waitFor();
    await bobTab.page.goto(`/chat/${chat.id}/options`);
    await bobTab.page.getByRole('listitem', { name: `${ann.account.username}, online` }).waitFor();

    // Ann leaves: she goes offline for Bob without a reload.
    await annTab.context.close();
    await bobTab.page.getByRole('listitem', { name: ann.account.username, exact: true }).waitFor();
  });
});
