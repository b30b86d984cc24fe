/**
 * @data with the asker's own OpenAI key, through the local OpenAI-protocol server
 * (docs/CONTRACTS.md, Hosted agents): the model calls run_sql with streamed argument fragments, a
 * failed query goes back to it as an error and is retried, and the reply carries the streamed
 * answer, the SQL and a markdown table. The fake records what the SDK sent: the person's key, the
 * model and the schema. Both databases.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

const salesCsv = 'month,region,amount\n2024-01-01,north,10\n2024-02-01,north,12.5\n2024-03-01,south,7\n2024-03-01,north,3\n';
const goodSql = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY total DESC';

/** A run_sql call whose JSON arguments arrive in fragments, as OpenAI streams them. */
const runSqlCall = (sql: string) => {
  const args = JSON.stringify({ sql });
  return { kind: 'tool_call' as const, name: 'run_sql', fragments: [args.slice(0, 9), args.slice(9, 30), args.slice(30)] };
};

describe.each(variants)('@data with an OpenAI key ($name)', (variant) => {
  let openai: FakeOpenAI;
  let testServer: TestServer;
  let asker: RegisteredUser;
  const sockets: TestSocket[] = [];

  const upload = async (chatId: string, name: string, content: string) => {
    const form = new FormData();
    form.set('chat', chatId);
    form.set('file', new Blob([new Uint8Array(Buffer.from(content))]), name);
    const response = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${asker.pb.authStore.token}` }, body: form });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  const salesChat = async (name: string) => {
    const chat = await createChat(asker, { name });
    await upload(chat.id, 'sales.csv', salesCsv);
    const socket = await authenticatedSocket(testServer.url, asker.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    return { chat, socket };
  };

  /** The streamed reply of @data (the one with a stream id), then its next message. */
  const streamedReply = async (socket: TestSocket) =>
    messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data' && typeof frame['stream_id'] === 'string', 15_000));
  const nextFromData = async (socket: TestSocket) => messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000));

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    testServer = await startTestServer(variant, { openaiBaseUrl: openai.baseUrl, openaiModel: 'gpt-test-data' });
    await registerUser(testServer);
    asker = await registerUser(testServer, { name: 'Asker' });
    await asker.pb.collection('users').update(asker.record.id, { openai_api_key: 'sk-asker-data-key-5678' });
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    openai.reset();
  });

  afterAll(async () => {
    await testServer?.close();
    await openai?.close();
  });

  it('writes the SQL through run_sql, runs it, and streams the answer with the SQL and a table', async () => {
    const { chat, socket } = await salesChat('Sales words');
    openai.enqueue(runSqlCall(goodSql), { kind: 'text', chunks: ['North ', 'sold the most ', '(25.5).'] });
    const before = openai.requests.length;
    await postMessage(asker, chat.id, '@data which region sold the most?');
    const answer = await streamedReply(socket);
    expect(answer.content).toMatch(/^North sold the most \(25\.5\)\./);
    expect(answer.content).toContain(`\`\`\`sql\n${goodSql}\n\`\`\``);
    expect(answer.content).toContain('| region | total |');
    expect(answer.content).toContain('| north | 25.5 |\n| south | 7 |');
    const chart = await nextFromData(socket);
    expect(JSON.parse(chart.content)).toMatchObject({ type: 'chart', kind: 'bar', x: { name: 'region', values: ['north', 'south'] } });

    const sent = openai.requests.slice(before);
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      expect(request.headers['authorization']).toBe('Bearer sk-asker-data-key-5678');
      expect(request.body['model']).toBe('gpt-test-data');
    }
    const firstMessages = JSON.stringify(sent[0]?.body['messages']);
    expect(firstMessages).toContain('table sales (4 rows, from sales.csv): month DATE, region VARCHAR, amount DOUBLE');
    expect(firstMessages).toContain('which region sold the most?');
    expect(JSON.stringify(sent[0]?.body['tools'])).toContain('run_sql');
    // The second round carries the tool's result back to the model.
    const secondMessages = JSON.stringify(sent[1]?.body['messages']);
    expect(secondMessages).toContain('call_fake1');
    expect(secondMessages).toContain('north');
  });

  it('sends a failing query’s error back to the model, which retries with good SQL', async () => {
    const { chat, socket } = await salesChat('Sales retry');
    openai.enqueue(runSqlCall('SELECT nope FROM sales'), runSqlCall(goodSql), { kind: 'text', chunks: ['North ', 'leads.'] });
    const before = openai.requests.length;
    await postMessage(asker, chat.id, '@data which region sold the most?');
    const answer = await streamedReply(socket);
    expect(answer.content).toMatch(/^North leads\./);
    expect(answer.content).toContain(`\`\`\`sql\n${goodSql}\n\`\`\``);
    expect(answer.content).not.toContain('SELECT nope');
    expect(answer.content).toContain('| north | 25.5 |');
    const sent = openai.requests.slice(before);
    expect(sent).toHaveLength(3);
    const retryMessages = JSON.stringify(sent[1]?.body['messages']);
    expect(retryMessages).toMatch(/Error: .*nope/);
    expect(retryMessages).toContain('Fix the SQL and call run_sql again.');
  });
});
