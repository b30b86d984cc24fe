/**
 * Replies between two browsers through the real server (docs/CONTRACTS.md, Replies): Ann replies
 * to Bob's message; Bob sees the quote and "1 reply", opens the thread and answers there. Then a
 * person replies to a developer agent's message without its @name and the agent answers in the
 * thread (the SDK's reply.send).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { connectAgent, type AgentConnection, type AgentWebSocketConstructor } from '@confab/client/agent';
import type { AgentKeyAnswer } from '@confab/client/protocol';
import { accountOverApi, describeBrowser, startStack, type Stack } from './harness';

describeBrowser('replies and threads', () => {
  let stack: Stack;
  const agents: AgentConnection[] = [];
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    for (const agent of agents) agent.close();
    await stack?.stop();
  });

  async function say(page: Page, text: string) {
    const input = page.getByLabel('Message', { exact: true });
    await input.fill(text);
    await input.press('Enter');
    await page.getByText(text, { exact: true }).first().waitFor();
  }

  async function replyTo(page: Page, text: string) {
    const message = page.getByRole('log', { name: 'Messages' }).getByRole('article').filter({ hasText: text });
    await message.hover();
    await message.getByRole('button', { name: 'Reply', exact: true }).click();
  }

  it('Ann replies to Bob; Bob sees the quote and "1 reply", opens the thread and answers there', { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'ann');
    const bob = await accountOverApi(stack, 'bob');
    const chat = await ann.pb.collection('chats').create({ name: 'Lunch', participants: [bob.id] });
    const annTab = await stack.signIn(ann.account);
    const bobTab = await stack.signIn(bob.account);
    for (const tab of [annTab, bobTab]) {
      await tab.page.goto(`/chat/${chat.id}`);
      await tab.page.getByText('Connected', { exact: true }).waitFor();
    }
    await say(bobTab.page, 'Lunch at 12?');
    await annTab.page.getByText('Lunch at 12?', { exact: true }).waitFor();

    // Ann: Reply, the banner names Bob, Escape cancels; Reply again and send.
    await replyTo(annTab.page, 'Lunch at 12?');
    await annTab.page.getByText(`Replying to ${bob.account.username}`).waitFor();
    await annTab.page.getByLabel('Message', { exact: true }).press('Escape');
    await annTab.page.getByText(`Replying to ${bob.account.username}`).waitFor({ state: 'detached' });
    await replyTo(annTab.page, 'Lunch at 12?');
    await say(annTab.page, 'Yes, see you there');

    // Bob sees the reply with its quote, and "1 reply" under his message, live.
    const log = bobTab.page.getByRole('log', { name: 'Messages' });
    const reply = log.getByRole('article').filter({ hasText: 'Yes, see you there' });
    await reply.getByRole('button', { name: /^Replying to .*: Lunch at 12\?/ }).waitFor();
    await log.getByRole('button', { name: '1 reply' }).click();

    // The thread opens beside the chat with the focus in it; Bob answers there.
    const thread = bobTab.page.getByRole('complementary', { name: 'Thread' });
    await thread.getByRole('list', { name: 'Replies' }).getByText('Yes, see you there').waitFor();
    expect(await bobTab.page.evaluate(() => document.activeElement?.textContent)).toBe('Thread');
    const composer = thread.getByRole('textbox', { name: 'Reply in thread' });
    await composer.fill('Great, table for two');
    await composer.press('Enter');
    await thread.getByRole('list', { name: 'Replies' }).getByText('Great, table for two').waitFor();
    await annTab.page.getByRole('log', { name: 'Messages' }).getByRole('button', { name: '2 replies' }).waitFor();

    // Ann deletes her reply while Bob's thread is open: it leaves his panel at once.
    const annReply = await ann.pb.collection('messages').getFirstListItem(ann.pb.filter('chat = {:chat} && seq = 2', { chat: chat.id }));
    await ann.pb.collection('messages').delete(annReply.id);
    await thread.getByRole('list', { name: 'Replies' }).getByText('Yes, see you there').waitFor({ state: 'detached' });
    await thread.getByRole('list', { name: 'Replies' }).getByText('Great, table for two').waitFor();
    await bobTab.page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });

    const stored = await ann.pb.collection('messages').getFullList({ filter: ann.pb.filter('chat = {:chat}', { chat: chat.id }), sort: 'seq' });
    expect(stored.map((message) => [message['content'], message['reply_to'] === stored[0]!.id, message['reply_count']])).toEqual([
      ['Lunch at 12?', false, 2],
      ['', true, 0],
      ['Great, table for two', true, 0],
    ]);
  });

  it("a reply to an agent's message reaches the agent without its @name, and it answers in the thread", { timeout: 180_000 }, async () => {
    const ann = await accountOverApi(stack, 'owner');
    const chat = await ann.pb.collection('chats').create({ name: 'Agent thread', agent_permissions: { confab_agents: true, developer_agents: true } });
    const created = await fetch(`${stack.baseUrl}/api/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ann.pb.authStore.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Helper', username: 'helper' }),
    });
    const { api_key: apiKey } = (await created.json()) as AgentKeyAnswer;
    const agent = connectAgent({ url: stack.baseUrl, apiKey, WebSocket: WebSocket as unknown as AgentWebSocketConstructor, logger: { error: () => {} } });
    agents.push(agent);
    agent.onMention(async (mention, reply) => {
      const thread = mention.thread?.length ?? 0;
      await reply.send(thread === 0 ? 'Hello, how can I help?' : `You said "${mention.content}" (thread of ${thread})`);
    });
    await agent.ready;

    const tab = await stack.signIn(ann.account);
    await tab.page.goto(`/chat/${chat.id}`);
    await tab.page.getByText('Connected', { exact: true }).waitFor();
    await say(tab.page, '@helper hi');
    await tab.page.getByText('Hello, how can I help?', { exact: true }).waitFor();

    await replyTo(tab.page, 'Hello, how can I help?');
    await say(tab.page, 'summarise please');
    const answer = tab.page.getByRole('log', { name: 'Messages' }).getByRole('article').filter({ hasText: 'You said "summarise please" (thread of 3)' });
    await answer.waitFor();
    await answer.getByRole('button', { name: /^Replying to .*: @helper hi/ }).waitFor();
  });
});
