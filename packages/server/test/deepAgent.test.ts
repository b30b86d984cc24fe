/**
 * @deep end to end on both databases: a fake SearXNG and a fake Brave Search, the
 * chat's drops and files through the workspace index, and the fake OpenAI server. Without a key
 * the message is the query and the results come with the add-a-key hint; with one, the model plans
 * the queries and a report citing the sources streams after the results. The results message
 * parses with the client's own parser. Pages of top results are read through the guarded fetcher.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseSearchResults } from '@confab/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { startFakeBrave, startFakeSearxng, type FakeSearch } from './support/fakeSearch';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { publishDrop, uploadFile } from './support/workspace';
import { authenticatedSocket, messageOf, type TestSocket, type WireMessage } from './support/wsClient';

const variants = await databaseVariants();

/** A page the fetcher may read (its host:port is allowed): the report's model sees its text. */
async function startPageServer(): Promise<{ url: string; hostPort: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><head><script>var secret = 1;</script></head><body><h1>Heat pumps</h1><p>PAGE-MARKER: a heat pump moves three units of heat per unit of power.</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/heat-pumps`, hostPort: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function searchData(message: WireMessage) {
  const data = parseSearchResults(JSON.parse(message.content));
  expect(data, message.content).not.toBeNull();
  return data!;
}

describe.each(variants)('@deep ($name)', (variant) => {
  let openai: FakeOpenAI;
  let searxng: FakeSearch;
  let brave: FakeSearch;
  let page: Awaited<ReturnType<typeof startPageServer>>;
  let web: TestServer;
  let workspaceOnly: TestServer;
  const sockets: TestSocket[] = [];

  const joined = async (testServer: TestServer, user: RegisteredUser, chatId: string) => {
    const socket = await authenticatedSocket(testServer.url, user.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chatId);
    return socket;
  };
  const fromDeep = async (socket: TestSocket, streamed = false) =>
    messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'deep' && (!streamed || typeof frame['stream_id'] === 'string'), 20_000));

  beforeAll(async () => {
    [openai, searxng, brave, page] = await Promise.all([startFakeOpenAI(), startFakeSearxng(), startFakeBrave('brave-test-token'), startPageServer()]);
    web = await startTestServer(variant, {
      searxngUrl: searxng.url,
      braveApiKey: 'brave-test-token',
      braveBaseUrl: brave.url,
      openaiBaseUrl: openai.baseUrl,
      openaiModel: 'gpt-test-deep',
      fetchAllowHosts: [page.hostPort],
    });
    workspaceOnly = await startTestServer(variant);
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    for (const fake of [openai, searxng, brave]) fake.reset();
  });

  afterAll(async () => {
    await web?.close();
    await workspaceOnly?.close();
    await Promise.all([openai?.close(), searxng?.close(), brave?.close(), page?.close()]);
  });

  it('without a key: searches the message on SearXNG, Brave and the chat, posts the results and the key hint', async () => {
    const asker = await registerUser(web);
    const chat = await createChat(asker, { name: 'Energy' });
    const drop = await publishDrop(web, asker, chat.id, 'Heat pump quotes', 'Three installers quoted heat pumps for the office.');
    const socket = await joined(web, asker, chat.id);
    await postMessage(asker, chat.id, '@deep heat pumps');

    const data = searchData(await fromDeep(socket));
    expect(data).toMatchObject({ type: 'search_results', query_summary: 'heat pumps', searches_performed: 3, metadata: { truncated: false } });
    const urls = data.results.map((result) => result.url);
    expect(urls).toEqual(expect.arrayContaining(['https://searx.example/heat-pumps/1', 'https://brave.example/heat-pumps/1', `${web.url}/drops/${drop.slug}`]));
    expect(data.total_results).toBe(7);
    expect(data.metadata?.original_count).toBe(7);
    expect(data.results.map((result) => result.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(data.results[0]?.relevance_score).toBe(1);
    const brave1 = data.results.find((result) => result.url === 'https://brave.example/heat-pumps/1');
    expect(brave1).toMatchObject({ domain: 'brave.example', snippet: 'What brave knows about heat pumps, part 1.', source_query: 'heat pumps' });
    expect(data.results.find((result) => result.url.includes('/drops/'))?.source_query).toBe('heat pumps (this chat)');

    const closing = await fromDeep(socket);
    expect(closing.content).toContain('I found 7 results for “heat pumps”');
    expect(closing.content).toContain('My Profile');
    expect(openai.requests).toHaveLength(0);
    expect(new URL(searxng.requests[0]?.path ?? '', 'http://x').searchParams.get('q')).toBe('heat pumps');
    expect(brave.requests[0]?.headers['x-subscription-token']).toBe('brave-test-token');
  });

  it('with a key: the model plans the queries, the results come first, then a streamed report citing them', async () => {
    const asker = await registerUser(web);
    await asker.pb.collection('users').update(asker.record.id, { openai_api_key: 'sk-deep-asker-1234' });
    const chat = await createChat(asker, { name: 'Research' });
    const socket = await joined(web, asker, chat.id);
    searxng.enqueue({ kind: 'hits', hits: [{ title: 'Heat pump basics', url: page.url, snippet: 'How a heat pump works.' }] });
    openai.enqueue(
      { kind: 'text', chunks: ['heat pump running costs\n', '- heat pump winter efficiency\n'] },
      { kind: 'text', chunks: ['Heat pumps move about three units of heat per unit of power ', `[[1]](${page.url}).`] },
    );
    await postMessage(asker, chat.id, '@deep are heat pumps worth it in winter?');

    const data = searchData(await fromDeep(socket));
    expect(data.query_summary).toBe('are heat pumps worth it in winter? (searched: heat pump running costs; heat pump winter efficiency)');
    expect(data.searches_performed).toBe(6);
    expect(data.results.map((result) => result.url)).toContain(page.url);
    expect(new Set(data.results.map((result) => result.source_query))).toEqual(new Set(['heat pump running costs', 'heat pump winter efficiency']));

    const report = await fromDeep(socket, true);
    expect(report.content).toMatch(/^Heat pumps move about three units of heat per unit of power \[\[1\]\]\(http:\/\/127\.0\.0\.1:\d+\/heat-pumps\)\./);
    expect(report.content).toContain('**Sources**\n1. [');
    expect(report.content).toContain(`](${page.url})`);

    expect(openai.requests).toHaveLength(2);
    for (const request of openai.requests) {
      expect(request.headers['authorization']).toBe('Bearer sk-deep-asker-1234');
      expect(request.body['model']).toBe('gpt-test-deep');
    }
    expect(JSON.stringify(openai.requests[0]?.body['messages'])).toContain('are heat pumps worth it in winter?');
    const reportInput = JSON.stringify(openai.requests[1]?.body['messages']);
    expect(reportInput).toContain(`URL: ${page.url}`);
    // The page was read through the guarded fetcher, as text without its script.
    expect(reportInput).toContain('PAGE-MARKER: a heat pump moves three units');
    expect(reportInput).not.toContain('var secret');
    const searched = searxng.requests.map((request) => new URL(request.path, 'http://x').searchParams.get('q'));
    expect(searched.sort()).toEqual(['heat pump running costs', 'heat pump winter efficiency']);
  });

  it('a failing provider is named while the others still answer', async () => {
    const asker = await registerUser(web);
    const chat = await createChat(asker, { name: 'Partial' });
    const socket = await joined(web, asker, chat.id);
    brave.enqueue({ kind: 'error', status: 500 });
    await postMessage(asker, chat.id, '@deep solar panels');
    const data = searchData(await fromDeep(socket));
    expect(data.results.map((result) => result.domain)).toEqual(['searx.example', 'searx.example', 'searx.example']);
    const closing = await fromDeep(socket);
    expect(closing.content).toContain('Brave Search answered 500.');
  });

  it('with no provider configured: the chat’s drops and files alone, and how to add a provider', async () => {
    const asker = await registerUser(workspaceOnly);
    const chat = await createChat(asker, { name: 'Garden' });
    await publishDrop(workspaceOnly, asker, chat.id, 'Tulip plan', 'Plant the tulip bulbs in October.');
    await uploadFile(workspaceOnly, asker, chat.id, 'bulbs.txt', 'Order of bulbs: tulips, crocus, daffodils.');
    const socket = await joined(workspaceOnly, asker, chat.id);
    await postMessage(asker, chat.id, '@deep tulip bulbs');

    const data = searchData(await fromDeep(socket));
    expect(data.searches_performed).toBe(1);
    expect(data.results.map((result) => result.title).sort()).toEqual(['File: bulbs.txt', 'Tulip plan']);
    const closing = await fromDeep(socket);
    expect(closing.content).toContain('CONFAB_SEARXNG_URL');
    expect(closing.content).toContain('CONFAB_BRAVE_API_KEY');

    await postMessage(asker, chat.id, '@deep zeppelins');
    const nothing = await fromDeep(socket);
    expect(nothing.content).toMatch(/^I found nothing in this chat for “zeppelins”\./);
    expect(nothing.content).toContain('CONFAB_SEARXNG_URL');
  });

  it('answers help for an empty request', async () => {
    const asker = await registerUser(workspaceOnly);
    const chat = await createChat(asker, { name: 'Help' });
    const socket = await joined(workspaceOnly, asker, chat.id);
    await postMessage(asker, chat.id, '@deep');
    expect((await fromDeep(socket)).content).toContain('I research a question');
  });
});
