import type { AgentView, DropListAnswer, Mention, WireMessage } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractiveDrop, parseComposed } from '../src/agents/hosted/drops';
import { agentSocket, allowDeveloperAgents, createAgent } from './support/agents';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startFakeOpenAI } from './support/fakeOpenAI';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

/** @drops (docs/CONTRACTS.md, Hosted agents) with no AI key: it publishes an extractive drop for the person who asked. */
const variants = await databaseVariants();

describe.each(variants)('@drops ($name)', (variant) => {
  let testServer: TestServer;
  let admin: RegisteredUser;
  let alice: RegisteredUser;

  /** The built-in @drops agent: made at start, or by the admin on a server that does not make it yet. */
  async function ensureDropsAgent(): Promise<void> {
    const found = (await rawRequest(testServer.url, 'GET', '/api/agents/search?q=drops', { token: admin.pb.authStore.token })).body as { agents: AgentView[] };
    if (found.agents.some((agent) => agent.username === 'drops')) return;
    const created = await rawRequest(testServer.url, 'POST', '/api/admin/confab-agents', { token: admin.pb.authStore.token, body: { name: 'Drops', username: 'drops' } });
    expect(created.status).toBe(200);
  }

  /** Alice's joined socket, and the next message @drops posts in the chat. */
  async function askDrops(chatId: string, text: string, socket: TestSocket): Promise<WireMessage> {
    await postMessage(alice, chatId, text);
    for (;;) {
      const message = await socket.nextMessage(chatId, 10_000);
      if (message.author_username === 'drops') return message;
    }
  }

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    admin = await registerUser(testServer);
    alice = await registerUser(testServer, { name: 'Alice' });
    await ensureDropsAgent();
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('publishes an extractive drop of the discussion with no key, links it, and it reaches the feed', async () => {
    const chat = await createChat(alice, { name: 'Roadmap' });
    const socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    try {
      await socket.join(chat.id);
      await postMessage(alice, chat.id, 'We ship the beta on Friday.');
      await postMessage(alice, chat.id, 'Docs need a quickstart first.');
      const reply = await askDrops(chat.id, '@drops create a guide about our discussion', socket);
      expect(reply.is_agent).toBe(true);
      const slug = /\]\(\/drops\/([a-z0-9-]+)\)/.exec(reply.content)?.[1];
      expect(slug, reply.content).toBeDefined();
      expect(reply.content).toContain('/profile');
      const drop = (await rawRequest(testServer.url, 'GET', `/api/drops/${slug}`, { token: alice.pb.authStore.token })).body as { title: string; content: string; author_id: string; chat_id: string };
      expect(drop.title).toMatch(/^Roadmap — \d{4}-\d{2}-\d{2}$/);
      expect(drop.content).toContain('We ship the beta on Friday.');
      expect(drop.content).toContain('Docs need a quickstart first.');
      expect(drop).toMatchObject({ author_id: alice.record.id, chat_id: chat.id });
      const feed = (await rawRequest(testServer.url, 'GET', '/api/drops/feed', { token: alice.pb.authStore.token })).body as DropListAnswer;
      expect(feed.drops.map((entry) => entry.slug)).toContain(slug);
      // list and help
      const listed = (await askDrops(chat.id, '@drops list', socket)).content;
      expect(listed).toContain(`/drops/${slug}`);
      expect(listed).toContain(' · 0 likes · ');
      await rawRequest(testServer.url, 'POST', `/api/drops/${slug}/like`, { token: alice.pb.authStore.token });
      expect((await askDrops(chat.id, '@drops list', socket)).content).toContain(' · 1 like · ');
      expect((await askDrops(chat.id, '@drops help', socket)).content).toContain('@drops create a guide about our discussion');
    } finally {
      await socket.close();
    }
  });

  it('publishes only where the asker may: an agent that is no participant cannot', async () => {
    const chat = await createChat(alice, { name: 'Guarded' });
    await allowDeveloperAgents(alice, chat.id);
    const bot = await createAgent(testServer.url, alice, { name: 'Relay' });
    const { socket: botSide } = await agentSocket(testServer.url, bot.api_key);
    const aliceSide = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    try {
      await aliceSide.join(chat.id);
      await postMessage(alice, chat.id, `@${bot.agent.username} please ask drops`);
      const { mention } = (await botSide.nextOfType('mention')) as unknown as { mention: Mention };
      botSide.send({ type: 'send_message', chat_id: chat.id, content: '@drops create a summary', client_id: 'relay-1', mention_id: mention.mention_id });
      let refusal: WireMessage | undefined;
      while (refusal === undefined) {
        const message = await aliceSide.nextMessage(chat.id, 10_000);
        if (message.author_username === 'drops') refusal = message;
      }
      expect(refusal.content).toBe('I can publish a drop only from a chat you are in.');
      expect((await testServer.probe.rows('select id from drops where chat = $1', [chat.id]))).toHaveLength(0);
    } finally {
      await botSide.close();
      await aliceSide.close();
    }
  });
});

describe.each(variants)('@drops with a key ($name)', (variant) => {
  it('writes the drop with the asker’s own key through the OpenAI protocol and publishes it', async () => {
    const openai = await startFakeOpenAI();
    const server = await startTestServer(variant, { openaiBaseUrl: openai.baseUrl, openaiModel: 'gpt-test' });
    try {
      await registerUser(server);
      const asker = await registerUser(server, { name: 'Asker' });
      await asker.pb.collection('users').update(asker.record.id, { openai_api_key: 'sk-asker-own-key-1234' });
      const chat = await createChat(asker, { name: 'Launch' });
      const socket = await authenticatedSocket(server.url, asker.pb.authStore.token);
      try {
        await socket.join(chat.id);
        await postMessage(asker, chat.id, 'Beta ships Friday; docs first.');
        const composed = JSON.stringify({ title: 'Launch guide', content: '1. Write the docs.\n2. Ship the beta on Friday.', tags: ['launch'] });
        openai.enqueue({ kind: 'text', chunks: [composed.slice(0, 20), composed.slice(20)] });
        await postMessage(asker, chat.id, '@drops create a guide about our discussion');
        let reply: WireMessage | undefined;
        while (reply === undefined) {
          const message = await socket.nextMessage(chat.id, 10_000);
          if (message.author_username === 'drops') reply = message;
        }
        expect(reply.content).toMatch(/^Published \[Launch guide\]\(\/drops\/launch-guide\)\.$/);
        const drop = (await rawRequest(server.url, 'GET', '/api/drops/launch-guide', { token: asker.pb.authStore.token })).body as { content: string; tags: string[] };
        expect(drop.content).toContain('Ship the beta on Friday.');
        expect(drop.tags).toEqual(['launch']);
        // The asker's own key paid, and the model saw the discussion.
        const sent = openai.requests.at(-1);
        expect(sent?.headers['authorization']).toBe('Bearer sk-asker-own-key-1234');
        expect(JSON.stringify(sent?.body['messages'])).toContain('Beta ships Friday; docs first.');
      } finally {
        await socket.close();
      }
    } finally {
      await server.close();
      await openai.close();
    }
  });
});

describe('@drops drafting', () => {
  const message = (content: string, extra: Partial<WireMessage> = {}): WireMessage => ({
    message_id: 'm', chat_id: 'c', author_id: 'a', author_name: 'Ann', author_username: 'ann', content, created_at: '2026-11-26 10:00:00.000Z', message_type: 'regular', seq: 1, is_agent: false, ...extra,
  });

  it('lists people’s messages, not agents’ replies or bare mentions, within the limits', () => {
    const draft = extractiveDrop({
      chat_name: 'x'.repeat(120),
      created_at: '2026-11-26 10:00:00.000Z',
      context: [message('first point'), message('an agent said', { is_agent: true }), message('@echo'), message('y'.repeat(500))],
    });
    expect(draft.title.length).toBeLessThanOrEqual(100);
    expect(draft.content).toContain('first point');
    expect(draft.content).not.toContain('an agent said');
    expect(draft.content.length).toBeLessThanOrEqual(2000);
  });

  it('reads the model’s JSON, keeps it within the limits, and adds its tags as #hashtags', () => {
    expect(parseComposed('Here: {"title":"Guide","content":"Step one.","tags":["beta","docs"]}')).toEqual({ title: 'Guide', content: 'Step one.\n\n#beta #docs' });
    expect(parseComposed('{"title":"' + 't'.repeat(150) + '","content":"c"}')?.title.length).toBe(100);
    expect(parseComposed('not json')).toBeUndefined();
    expect(parseComposed('{"title":"","content":"x"}')).toBeUndefined();
  });
});
