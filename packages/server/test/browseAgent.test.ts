import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireMessage } from '@confab/client/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browseRequest, readPage, tablesMarkdown } from '../src/agents/hosted/browse';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

/** @browse (docs/SECURITY.md H7) against local sites on 127.0.0.1, allowed by CONFAB_FETCH_ALLOW_HOSTS. */
const variants = await databaseVariants();

const article = `<!doctype html><html><head><title>Otters of the Lake | Nature Blog</title><meta name="author" content="Ada Lovelace"></head>
<body><nav><a href="/">Home</a> <a href="/about">About us</a></nav>
<article><h1>Otters of the Lake</h1><p class="byline">By Ada Lovelace</p>
<p>Otters are semiaquatic mammals that live along the lake shore. They eat fish and crayfish, and they use stones as tools to open shells.</p>
<p>The lake's otter population doubled between 2010 and 2020, thanks to cleaner water and protected banks along the northern shore.</p>
<p>Visitors can watch them at dawn from the wooden pier near the old mill. <a href="https://wildlife.example/otters#top">More about otters</a></p>
<script>document.title = 'hacked'</script></article><footer><a href="mailto:editor@nature.example">Write to us</a></footer></body></html>`;

const pricing = `<!doctype html><html><head><title>Pricing</title></head><body><h1>Plans</h1>
<table><caption>Monthly plans</caption><tr><th>Plan</th><th>Price</th><th>Seats</th></tr><tr><td>Solo</td><td>$5</td><td>1</td></tr><tr><td>Team | Pro</td><td>$20</td><td>10</td></tr></table>
<table><tr><td>Support</td><td>Email</td></tr></table></body></html>`;

/** A local site that counts requests. */
async function startSite(pages: Record<string, [string, string]>): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((incoming, response) => {
    requests.push(incoming.url ?? '');
    const page = pages[incoming.url ?? ''];
    if (page === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, requests, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

describe('@browse requests', () => {
  it('reads links, tables, a URL with a question, and help', () => {
    expect(browseRequest('@browse links https://a.example/x')).toEqual({ kind: 'links', url: 'https://a.example/x' });
    expect(browseRequest('@browse tables <https://a.example/p>')).toEqual({ kind: 'tables', url: 'https://a.example/p' });
    expect(browseRequest('@browse https://a.example/p. what does it cost?')).toEqual({ kind: 'read', url: 'https://a.example/p', question: 'what does it cost?' });
    expect(browseRequest('@browse what is on https://en.example/wiki/Otter_(animal)?')).toEqual({ kind: 'read', url: 'https://en.example/wiki/Otter_(animal)', question: 'what is on' });
    expect(browseRequest('@browse')).toEqual({ kind: 'help' });
    expect(browseRequest('@browse example.com please')).toMatchObject({ kind: 'help', reason: expect.stringContaining('http') });
  });

  it('turns tables into markdown with their captions, escaping cell pipes', () => {
    const markdown = tablesMarkdown(readPage('https://a.example/p', pricing, 'text/html'));
    expect(markdown).toContain('**Table 1: Monthly plans**');
    expect(markdown).toContain('| Plan | Price | Seats |');
    expect(markdown).toContain('| Team \\| Pro | $20 | 10 |');
    expect(markdown).toContain('**Table 2**');
  });
});

describe.each(variants)('@browse ($name)', (variant) => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let forbidden: Awaited<ReturnType<typeof startSite>>;
  let openai: FakeOpenAI;
  let testServer: TestServer;
  let alice: RegisteredUser;
  let keyed: RegisteredUser;

  async function askBrowse(user: RegisteredUser, chatId: string, text: string, socket: TestSocket): Promise<WireMessage> {
    await postMessage(user, chatId, text);
    for (;;) {
      const message = await socket.nextMessage(chatId, 15_000);
      if (message.author_username === 'browse') return message;
    }
  }

  beforeAll(async () => {
    site = await startSite({ '/otters': ['text/html; charset=utf-8', article], '/pricing': ['text/html', pricing], '/doc.pdf': ['application/pdf', '%PDF-1.7'] });
    forbidden = await startSite({ '/secret': ['text/html', '<title>Internal</title><p>secret</p>'] });
    openai = await startFakeOpenAI();
    testServer = await startTestServer(variant, { fetchAllowHosts: [`127.0.0.1:${site.port}`], openaiBaseUrl: openai.baseUrl, openaiModel: 'gpt-test' });
    alice = await registerUser(testServer, { name: 'Alice' });
    keyed = await registerUser(testServer, { name: 'Keyed' });
    await keyed.pb.collection('users').update(keyed.record.id, { openai_api_key: 'sk-keyed-own-key-5678' });
  });

  afterAll(async () => {
    await testServer?.close();
    await openai?.close();
    await site?.close();
    await forbidden?.close();
  });

  it('without a key: the title, byline and opening, its links and tables as markdown, and the key hint', async () => {
    const chat = await createChat(alice, { name: 'Nature' });
    const socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    try {
      await socket.join(chat.id);
      const base = `http://127.0.0.1:${site.port}`;
      const preview = await askBrowse(alice, chat.id, `@browse ${base}/otters`, socket);
      expect(preview.is_agent).toBe(true);
      expect(preview.content).toContain('**Otters of the Lake | Nature Blog**');
      expect(preview.content).toContain('_by Ada Lovelace_');
      expect(preview.content).toContain('Otters are semiaquatic mammals');
      expect(preview.content).toContain('population doubled between 2010 and 2020');
      expect(preview.content).not.toContain('hacked');
      expect(preview.content).toContain(`Source: <${base}/otters>`);
      expect(preview.content).toContain('/profile');

      const links = await askBrowse(alice, chat.id, `@browse links ${base}/otters`, socket);
      expect(links.content).toContain(`- [Home](<${base}/>)`);
      expect(links.content).toContain(`- [About us](<${base}/about>)`);
      expect(links.content).toContain('- [More about otters](<https://wildlife.example/otters>)');
      expect(links.content).not.toContain('mailto:');

      const tables = await askBrowse(alice, chat.id, `@browse tables ${base}/pricing`, socket);
      expect(tables.content).toContain('| Plan | Price | Seats |');
      expect(tables.content).toContain('| Solo | $5 | 1 |');

      const pdf = await askBrowse(alice, chat.id, `@browse ${base}/doc.pdf`, socket);
      expect(pdf.content).toContain('PDF');
      const missing = await askBrowse(alice, chat.id, `@browse ${base}/gone`, socket);
      expect(missing.content).toContain('answered 404');
      expect((await askBrowse(alice, chat.id, '@browse', socket)).content).toContain('@browse links');
    } finally {
      await socket.close();
    }
  });

  it('refuses private addresses with a clear reply, and nothing reaches them', async () => {
    const chat = await createChat(alice, { name: 'Probing' });
    const socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    try {
      await socket.join(chat.id);
      for (const url of [`http://127.0.0.1:${forbidden.port}/secret`, `http://0x7f000001:${forbidden.port}/secret`, `http://[::ffff:127.0.0.1]:${forbidden.port}/secret`, 'http://169.254.169.254/latest/meta-data/']) {
        const refused = await askBrowse(alice, chat.id, `@browse links ${url}`, socket);
        expect(refused.content, url).toMatch(/^I can't fetch .*: it leads to .*I only reach public addresses\.$/);
      }
      expect((await askBrowse(alice, chat.id, '@browse file:///etc/passwd', socket)).content).toContain('http://');
      expect(forbidden.requests).toEqual([]);
    } finally {
      await socket.close();
    }
  });

  it('with a key: streams an answer grounded in the page, paid by the asker’s own key, with its source', async () => {
    const chat = await createChat(keyed, { name: 'Keyed' });
    const socket = await authenticatedSocket(testServer.url, keyed.pb.authStore.token);
    try {
      await socket.join(chat.id);
      openai.enqueue({ kind: 'text', chunks: ['It doubled ', 'between 2010 and 2020.'] });
      const url = `http://127.0.0.1:${site.port}/otters`;
      const answer = await askBrowse(keyed, chat.id, `@browse ${url} how did the otter population change?`, socket);
      expect(answer.content).toBe(`It doubled between 2010 and 2020.\n\nSource: [Otters of the Lake | Nature Blog](<${url}>)`);
      const sent = openai.requests.at(-1);
      expect(sent?.headers['authorization']).toBe('Bearer sk-keyed-own-key-5678');
      const messages = JSON.stringify(sent?.body['messages']);
      expect(messages).toContain('population doubled between 2010 and 2020');
      expect(messages).toContain('how did the otter population change?');
      expect(messages).not.toContain('hacked');
    } finally {
      await socket.close();
    }
  });
});
