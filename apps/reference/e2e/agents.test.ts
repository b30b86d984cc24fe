/**
 * Agents end to end (docs/CONTRACTS.md, Agents): a developer signs up, creates an agent on My
 * Agents and sees its key once; the admin page is for admins, where the first account creates and
 * deletes a hosted agent; and an agent run with the SDK in this process is picked from the message
 * input's autocomplete, says what it is doing, and streams its reply, which a second person sees
 * too; and a handler run with the built `confab run` answers a mention typed in the browser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PocketBase from 'pocketbase';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectAgent, type AgentConnection, type AgentWebSocketConstructor } from '@confab/client/agent';
import type { AgentKeyAnswer } from '@confab/client/protocol';
import { describeBrowser, newAccount, registerInBrowser, startStack, type Stack } from './harness';

describeBrowser('agents in Chromium', () => {
  let stack: Stack;
  // The first account of a server is its admin: created before anyone else signs up.
  const admin = newAccount('admin');
  const agents: AgentConnection[] = [];

  beforeAll(async () => {
    stack = await startStack();
    const pb = new PocketBase(stack.baseUrl);
    await pb.collection('users').create({ ...admin, passwordConfirm: admin.password });
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await stack?.stop();
  });

  const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sidebar' });

  it('a developer creates an agent and sees its key once; the admin page is for admins, who manage hosted agents', { timeout: 180_000 }, async () => {
    const developer = newAccount('dev');
    const { page, context } = await stack.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    await registerInBrowser(page, developer);

    // My Agents from the sidebar (DEV).
    await sidebar(page).getByRole('button', { name: /My Agents/ }).click();
    await page.waitForURL('**/agents');
    await page.getByRole('heading', { level: 1, name: 'My Agents' }).waitFor();
    await page.getByText('You have no agents yet. Create one above.').waitFor();
    const quickstart = page.getByRole('region', { name: 'Quickstart' });
    expect(await quickstart.textContent()).toContain(`confab login --server ${stack.baseUrl} --username ${developer.username}`);

    // The name is required (docs/PRODUCT.md §5).
    const form = page.getByRole('form', { name: 'Create an agent' });
    await form.getByRole('button', { name: 'Create Agent' }).click();
    expect(await form.getByRole('alert').textContent()).toContain('Please enter an agent name');

    await form.getByLabel('Name', { exact: true }).fill('Echo Bot');
    await form.getByLabel('Description').fill('Repeats what it is told.');
    await form.getByRole('button', { name: 'Create Agent' }).click();

    // The key, once, with Copy and the warning.
    const notice = page.getByRole('region', { name: 'API key for @echo_bot' });
    await notice.waitFor();
    const apiKey = await notice.getByLabel('API key').inputValue();
    expect(apiKey).toMatch(/^cfk_[A-Za-z0-9_-]{43}$/);
    expect(await notice.textContent()).toContain('Copy this key now: it will not be shown again.');
    await notice.getByRole('button', { name: 'Copy key' }).click();
    await notice.getByRole('status').filter({ hasText: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);

    // The key works: GET /api/agent/me answers as the agent.
    const me = await fetch(`${stack.baseUrl}/api/agent/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { agent: { username: string } }).agent.username).toBe('echo_bot');

    const card = page.getByRole('article', { name: 'Echo Bot' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Offline');
    expect(await card.textContent()).toContain('Dev room pending...');

    // A reload shows the agent, never the key.
    await page.reload();
    await page.getByRole('article', { name: 'Echo Bot' }).waitFor();
    expect(await page.getByRole('region', { name: /API key for/ }).count()).toBe(0);
    expect(await page.content()).not.toContain(apiKey);

    // Confab Agents Management (ADMIN) tells a non-admin it is for admins.
    await sidebar(page).getByRole('button', { name: /Confab Agents/ }).click();
    await page.waitForURL('**/admin/confab-agents');
    const adminsOnly = page.getByRole('region', { name: 'Admins only' });
    await adminsOnly.waitFor();
    expect(await adminsOnly.textContent()).toContain('This page is for admins.');
    expect(await page.getByRole('form', { name: 'Create a hosted agent' }).count()).toBe(0);
    await context.close();

    // The first account is the admin: it lists, creates and deletes hosted agents.
    const { page: adminPage, context: adminContext } = await stack.signIn(admin);
    await sidebar(adminPage).getByRole('button', { name: /Confab Agents/ }).click();
    await adminPage.waitForURL('**/admin/confab-agents');
    const hosted = adminPage.getByRole('region', { name: 'Hosted agents' });
    // Loaded: the list or its empty state (whether the server seeds hosted agents or not).
    const loaded = () => hosted.getByText('No hosted agents yet.').or(hosted.getByRole('article').first()).waitFor();
    await loaded();
    const adminForm = adminPage.getByRole('form', { name: 'Create a hosted agent' });
    await adminForm.getByRole('button', { name: 'Create Hosted Agent' }).click();
    expect(await adminForm.getByRole('alert').textContent()).toContain('Please enter a display name');
    await adminForm.getByLabel('Display name').fill('Summariser');
    await adminForm.getByLabel('Description').fill('Sums up long threads in three bullet points.');
    await adminForm.getByRole('button', { name: 'Create Hosted Agent' }).click();
    const summariser = hosted.getByRole('article', { name: 'Summariser' });
    await summariser.waitFor();

    adminPage.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Are you sure you want to delete this agent?');
      void dialog.accept();
    });
    await summariser.getByRole('button', { name: 'Delete' }).click();
    await summariser.waitFor({ state: 'detached' });
    await adminPage.reload();
    await loaded();
    expect(await hosted.getByRole('article', { name: 'Summariser' }).count()).toBe(0);
    await adminContext.close();
  });

  it('an agent run with the SDK is mentioned from the autocomplete and streams its reply to everyone in the chat', { timeout: 180_000 }, async () => {
    const pb = new PocketBase(stack.baseUrl);
    const developer = newAccount('owner');
    const friend = newAccount('friend');
    for (const account of [developer, friend]) await pb.collection('users').create({ ...account, passwordConfirm: account.password });
    const friendRecord = await pb.collection('users').authWithPassword(friend.username, friend.password);
    await pb.collection('users').authWithPassword(developer.username, developer.password);
    const chat = await pb.collection('chats').create({ name: 'Agent playground' });
    await pb.collection('chats').update(chat.id, { 'participants+': friendRecord.record.id });

    // The agent, created through the API with the developer's token, runs in this process.
    const created = await fetch(`${stack.baseUrl}/api/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pb.authStore.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Parrot', username: 'parrot_bot', description: 'Says it back, slowly.' }),
    });
    expect(created.status).toBe(200);
    const { api_key: apiKey } = (await created.json()) as AgentKeyAnswer;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let statusSeen: () => void = () => {};
    const seen = new Promise<void>((resolve) => (statusSeen = resolve));
    const agent = connectAgent({ url: stack.baseUrl, apiKey, WebSocket: WebSocket as unknown as AgentWebSocketConstructor, logger: { error: () => {} } });
    agents.push(agent);
    agent.onMention(async (mention, reply) => {
      reply.status('is thinking…');
      // The status shows until the reply starts streaming (which clears it): held until seen.
      await seen;
      const stream = reply.stream();
      stream.write('Polly heard: ');
      // The first part stays on screen, growing, until the test has seen it.
      await released;
      stream.write(mention.content.replace(/@parrot_bot\s*/, ''));
      await stream.end();
    });
    await agent.ready;

    const { page } = await stack.signIn(developer);
    const { page: friendPage } = await stack.signIn(friend);

    // Connected: My Agents shows it online, with the dev room its first connection made.
    await page.goto('/agents');
    const parrot = page.getByRole('article', { name: 'Parrot' });
    await parrot.filter({ hasText: 'Online' }).waitFor();
    await parrot.getByRole('button', { name: 'Open Dev Room' }).waitFor();
    await friendPage.goto(`/chat/${chat.id}`);
    await friendPage.getByRole('heading', { level: 1, name: 'Agent playground' }).waitFor();

    // Developer agents are off in a new chat: the developer allows them in Chat Options.
    await page.goto(`/chat/${chat.id}/options`);
    const developerAgents = page.getByRole('switch', { name: 'Developer agents' });
    await developerAgents.waitFor();
    expect(await developerAgents.isChecked()).toBe(false);
    await developerAgents.click();
    await expect.poll(async () => (await pb.collection('chats').getOne(chat.id))['agent_permissions']?.['developer_agents']).toBe(true);
    await page.goto(`/chat/${chat.id}`);
    await page.getByRole('heading', { level: 1, name: 'Agent playground' }).waitFor();

    // @ and a word: the autocomplete offers the agent; Enter picks it.
    const input = page.getByRole('combobox', { name: 'Message' });
    await input.click();
    await input.pressSequentially('@parr');
    const option = page.getByRole('listbox', { name: 'Agents' }).getByRole('option', { name: /@parrot_bot/ });
    await option.waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await input.press('Enter');
    expect(await input.inputValue()).toBe('@parrot_bot ');
    await input.pressSequentially('pieces of eight');
    await input.press('Enter');

    // The status, then the reply growing in place, for the sender and for the friend.
    const activity = page.getByRole('status', { name: 'Agent activity' });
    await activity.filter({ hasText: '@parrot_bot is thinking…' }).waitFor({ timeout: 15_000 });
    statusSeen();
    for (const viewer of [page, friendPage]) {
      const growing = viewer.getByRole('article', { name: 'Parrot (Agent)' });
      await growing.filter({ hasText: 'Polly heard:' }).waitFor({ timeout: 15_000 });
      expect(await growing.getAttribute('aria-busy')).toBe('true');
      expect(await growing.textContent()).toContain('typing...');
    }
    // The stream has started: the status line is gone.
    await activity.filter({ hasText: 'is thinking' }).waitFor({ state: 'detached', timeout: 15_000 });
    release();
    for (const viewer of [page, friendPage]) {
      const final = viewer.getByRole('article', { name: 'Parrot (Agent)' });
      await final.filter({ hasText: 'Polly heard: pieces of eight' }).waitFor({ timeout: 15_000 });
      await viewer.waitForFunction(() => document.querySelector('article[aria-busy="true"]') === null);
      expect(await final.count()).toBe(1);
    }

    // The stored reply is an ordinary message of the chat.
    const messages = await pb.collection('messages').getFullList({ filter: `chat = "${chat.id}"`, sort: 'seq' });
    const authored = messages.filter((message) => message['message_type'] !== 'system');
    expect(authored.map((message) => String(message['content'] ?? ''))).toEqual(['@parrot_bot pieces of eight', 'Polly heard: pieces of eight']);

    // The agent stops: My Agents, open meanwhile, shows it offline without a reload (agent_presence).
    await page.goto('/agents');
    await parrot.filter({ hasText: 'Online' }).waitFor();
    await agent.close();
    await parrot.filter({ hasText: 'Offline' }).waitFor({ timeout: 15_000 });
  });

  it("the agent search's Chat button starts a chat with the agent, whose first message it answers", { timeout: 120_000 }, async () => {
    const pb = new PocketBase(stack.baseUrl);
    const developer = newAccount('searcher');
    await pb.collection('users').create({ ...developer, passwordConfirm: developer.password });
    await pb.collection('users').authWithPassword(developer.username, developer.password);
    const created = await fetch(`${stack.baseUrl}/api/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pb.authStore.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Greeter', username: 'greeter_bot' }),
    });
    const { api_key: apiKey } = (await created.json()) as AgentKeyAnswer;
    const agent = connectAgent({ url: stack.baseUrl, apiKey, WebSocket: WebSocket as unknown as AgentWebSocketConstructor, logger: { error: () => {} } });
    agents.push(agent);
    agent.onMention(async (mention, reply) => {
      await reply.send(`Hello! You said: ${mention.content}`);
    });
    await agent.ready;

    const { page } = await stack.signIn(developer);
    const search = page.getByRole('region', { name: 'Find an agent' });
    await search.getByRole('searchbox', { name: 'Search agents' }).fill('greet');
    await search.getByRole('button', { name: 'Chat with @greeter_bot' }).click();
    await page.waitForURL('**/chat/new');
    await page.getByRole('heading', { name: 'Chat with @greeter_bot' }).waitFor();
    expect(await page.getByLabel('Chat name').inputValue()).toBe('Chat with Greeter');
    const first = page.getByLabel('First message');
    expect(await first.inputValue()).toBe('@greeter_bot ');
    await first.press('End');
    await first.pressSequentially('nice to meet you');
    await page.getByRole('button', { name: 'Create Chat' }).click();

    await page.waitForURL(/\/chat\/[a-z0-9]{15}$/);
    await page.getByRole('heading', { level: 1, name: 'Chat with Greeter' }).waitFor();
    const log = page.getByRole('log', { name: 'Messages' });
    await log.locator('.cf-message__body').getByText('@greeter_bot nice to meet you', { exact: true }).waitFor();
    await log.getByRole('article', { name: 'Greeter (Agent)' }).filter({ hasText: 'Hello! You said: @greeter_bot nice to meet you' }).waitFor({ timeout: 15_000 });
    // Sent once: a reload shows the two messages, nothing sent again.
    await page.reload();
    await log.getByRole('article', { name: 'Greeter (Agent)' }).waitFor();
    // Once as a message (the agent's reply quotes it too, in its reply quote).
    expect(await log.locator('.cf-message__body').getByText('@greeter_bot nice to meet you', { exact: true }).count()).toBe(1);
  });

  it('a handler run with `confab run` (the built CLI) answers a mention typed in the browser with a streamed reply', { timeout: 120_000 }, async () => {
    const cli = fileURLToPath(new URL('../../../packages/cli/dist/index.js', import.meta.url));
    if (!existsSync(cli)) throw new Error(`The built CLI (${cli}) is missing: run the README's test command.`);
    const pb = new PocketBase(stack.baseUrl);
    const developer = newAccount('runner');
    await pb.collection('users').create({ ...developer, passwordConfirm: developer.password });
    await pb.collection('users').authWithPassword(developer.username, developer.password);
    const chat = await pb.collection('chats').create({ name: 'Run playground', agent_permissions: { confab_agents: true, developer_agents: true } });
    const created = await fetch(`${stack.baseUrl}/api/agents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pb.authStore.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Shouter', username: 'shouter' }),
    });
    const { api_key: apiKey } = (await created.json()) as AgentKeyAnswer;

    // The developer's own code: a handler module, as `confab init` writes one.
    const project = mkdtempSync(join(tmpdir(), 'confab-run-e2e-'));
    const handler = join(project, 'agent.mjs');
    writeFileSync(
      handler,
      [
        'export default async (mention, reply) => {',
        "  reply.status('is shouting…');",
        '  // Thinking a moment, then the stream starts (which clears the status).',
        '  await new Promise((resolve) => setTimeout(resolve, 1500));',
        '  const stream = reply.stream();',
        "  for (const word of mention.content.replace(/@shouter\\s*/, '').split(' ')) {",
        "    stream.write(word.toUpperCase() + ' ');",
        '    await new Promise((resolve) => setTimeout(resolve, 150));',
        '  }',
        '  await stream.end();',
        '};',
        '',
      ].join('\n'),
    );
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [cli, 'run', handler, '--agent', 'shouter', '--server', stack.baseUrl, '--json'], {
        env: { ...process.env, CONFAB_AGENT_KEY: apiKey, CONFAB_CONFIG_DIR: project },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      await expect.poll(async () => {
        const mine = (await (await fetch(`${stack.baseUrl}/api/agents/mine`, { headers: { Authorization: `Bearer ${pb.authStore.token}` } })).json()) as { agents: { username: string; status: string }[] };
        return mine.agents.find((agent) => agent.username === 'shouter')?.status;
      }, { timeout: 15_000 }).toBe('online');

      const { page } = await stack.signIn(developer);
      await page.goto(`/chat/${chat.id}`);
      await page.getByRole('heading', { level: 1, name: 'Run playground' }).waitFor();
      const input = page.getByRole('combobox', { name: 'Message' });
      await input.click();
      await input.pressSequentially('@shouter hello there friend');
      await input.press('Escape');
      await input.press('Enter');
      const activity = page.getByRole('status', { name: 'Agent activity' });
      await activity.filter({ hasText: '@shouter is shouting…' }).waitFor({ timeout: 15_000 });
      const reply = page.getByRole('article', { name: 'Shouter (Agent)' });
      await reply.filter({ hasText: 'HELLO' }).waitFor({ timeout: 15_000 });
      await activity.filter({ hasText: 'is shouting' }).waitFor({ state: 'detached', timeout: 15_000 });
      await reply.filter({ hasText: 'HELLO THERE FRIEND' }).waitFor({ timeout: 15_000 });
      await page.waitForFunction(() => document.querySelector('article[aria-busy="true"]') === null);
      // One NDJSON line per mention and per reply.
      await expect.poll(() => log.split('\n').filter((line) => line.includes('"event":"mention"') || line.includes('"event":"reply"')).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      if (child !== undefined && child.exitCode === null) {
        const exited = new Promise((resolve) => child?.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
        expect(child.exitCode).toBe(0);
      }
      rmSync(project, { recursive: true, force: true });
    }
  });
});
