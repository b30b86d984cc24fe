/**
 * Reactions between two browsers through the real server: Bob reacts 👍 to Ann's message from the
 * picker, Ann sees the chip named "👍 1: bob…" live, clicking it adds hers, and a reload shows both.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('reactions between two people', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a reaction shows live to the other person as a chip naming who reacted, and survives a reload', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Launch Plan', participants: [bob.id] });
    await ann.pb.collection('messages').create({ chat: chat.id, content: 'Ship it on Friday?' });
    const annTab = await stack.signIn(ann.account);
    const bobTab = await stack.signIn(bob.account);
    for (const tab of [annTab, bobTab]) {
      await tab.page.goto(`/chat/${chat.id}`);
      await tab.page.getByText('Connected', { exact: true }).waitFor();
      await tab.page.getByText('Ship it on Friday?', { exact: true }).waitFor();
    }

    // Bob: "Add reaction" on Ann's message, then 👍 from the keyboard (the search box has the focus).
    const onBobs = bobTab.page.getByRole('article').filter({ hasText: 'Ship it on Friday?' });
    await onBobs.hover();
    await onBobs.getByRole('button', { name: 'Add reaction' }).click();
    const picker = bobTab.page.getByRole('dialog', { name: 'Add reaction' });
    await picker.getByLabel('Search emoji').waitFor();
    await bobTab.page.keyboard.press('ArrowDown');
    await bobTab.page.keyboard.press('Enter');
    const bobsChip = `👍 1: ${bob.account.username}`;
    await onBobs.getByRole('button', { name: bobsChip }).waitFor();

    // Ann sees it live, with who reacted in its name and tooltip.
    const onAnns = annTab.page.getByRole('article').filter({ hasText: 'Ship it on Friday?' });
    const chip = onAnns.getByRole('button', { name: bobsChip });
    await chip.waitFor();
    expect(await chip.getAttribute('title')).toBe(bobsChip);
    expect(await chip.getAttribute('aria-pressed')).toBe('false');
    // Ann clicks the chip: hers joins his, for both.
    await chip.click();
    const bothChip = `👍 2: ${bob.account.username}, ${ann.account.username}`;
    await onAnns.getByRole('button', { name: bothChip }).waitFor();
    await onBobs.getByRole('button', { name: bothChip }).waitFor();

    const stored = await ann.pb.collection('messages').getFullList({ filter: ann.pb.filter('chat = {:chat}', { chat: chat.id }) });
    expect(stored[0]?.['reactions']).toMatchObject([{ emoji: '👍', count: 2 }]);
    await annTab.page.reload();
    await annTab.page.getByRole('article').filter({ hasText: 'Ship it on Friday?' }).getByRole('button', { name: bothChip }).waitFor();
    expect(await annTab.page.getByRole('button', { name: bothChip }).getAttribute('aria-pressed')).toBe('true');

    await annTab.context.close();
    await bobTab.context.close();
  });
});
