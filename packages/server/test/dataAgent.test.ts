/**
 * @data on a real server with a real DuckDB (docs/CONTRACTS.md, Hosted agents): a chat's CSV, JSON
 * and XLSX uploads as tables, `tables`, raw SQL with no key, chart messages for a series, hostile
 * SQL refused or stopped with the server still serving, and a question in words through an
 * AiGateway (a small fake here, answering with a run_sql tool call). Both databases.
 */
import { join } from 'node:path';
import type { Mention } from '@confab/client/protocol';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AiGateway, AiRequest } from '../src/agents/ai/types';
import { createDataHandler } from '../src/agents/hosted/data';
import { DataJobs } from '../src/agents/hosted/dataJobs';
import type { ChatDataFile } from '../src/agents/tools/duckdb';
import { DiskFileStore } from '../src/services/files/diskFileStore';
import { fileKey } from '../src/services/files/fileStore';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

const salesCsv = 'month,region,amount\n2024-01-01,north,10\n2024-02-01,north,12.5\n2024-03-01,south,7\n2024-03-01,north,3\n';
const teamJson = JSON.stringify([
  { name: 'Ann', team: 'red', score: 3 },
  { name: 'Bo', team: 'blue', score: 5 },
]);

/** A fake gateway holding to the AiGateway contract: one run_sql call, then a streamed answer. */
function fakeGateway(sqls: string[]): AiGateway & { requests: AiRequest[] } {
  const requests: AiRequest[] = [];
  return {
    requests,
    available: async () => true,
    async complete(request) {
      requests.push(request);
      const tool = request.tools?.find((entry) => entry.name === 'run_sql');
      let last = '';
      for (const sql of sqls) {
        last = await tool!.run({ sql });
        if (!last.startsWith('Error')) break;
      }
      const text = last.startsWith('Error') ? 'The query failed.' : 'North sold the most.';
      request.onText?.(text.slice(0, 6));
      request.onText?.(text.slice(6));
      return { text, provider: 'openai', keyOwner: 'user', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

describe.each(variants)('@data ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let aiFiles: ChatDataFile[] = [];
  /** The test agents' own job queue (the server's @data has its own). */
  let jobs: DataJobs;
  const gateway = fakeGateway(['SELECT nope FROM sales', "SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY total DESC"]);
  const sockets: TestSocket[] = [];

  const upload = async (chatId: string, name: string, content: string | Buffer) => {
    const form = new FormData();
    form.set('chat', chatId);
    form.set('file', new Blob([new Uint8Array(typeof content === 'string' ? Buffer.from(content) : content)]), name);
    const response = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${alice.pb.authStore.token}` }, body: form });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as { id: string; chat: string; file: string; original_name: string; size: number };
  };

  /** A chat with the three files, Alice's socket joined. */
  const dataChat = async (name: string) => {
    const chat = await createChat(alice, { name });
    const xlsx = await writeXlsxFile([
      [{ value: 'product' }, { value: 'price' }],
      [{ value: 'Kettle' }, { value: 25 }],
      [{ value: 'Toaster' }, { value: 40.5 }],
    ]).toBuffer();
    const records = [await upload(chat.id, 'sales.csv', salesCsv), await upload(chat.id, 'Team.json', teamJson), await upload(chat.id, 'Products 2024.xlsx', xlsx)];
    const socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    return { chat, socket, records };
  };

  const ask = async (socket: TestSocket, chatId: string, content: string, username = 'data') => {
    await postMessage(alice, chatId, content);
    return messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === username, 15_000));
  };

  beforeAll(async () => {
    testServer = await startTestServer(variant, {
      hostedAgents: {
        // The same handler with a fake gateway and a short limit, over the files the test uploaded.
        data_ai: (mention: Mention, reply) => createDataHandler({ files: async () => aiFiles, jobs, ai: gateway, timeoutMs: 500 })(mention, reply),
        data_fast: (mention: Mention, reply) => createDataHandler({ files: async () => aiFiles, jobs, timeoutMs: 500 })(mention, reply),
      },
    });
    jobs = new DataJobs({ running: 2, perChat: 1, perUser: 1, waiting: 8, deadlineMs: 30_000 }, { memoryMb: 256, spillMb: 256, root: join(testServer.dataDir, 'tmp', 'test-jobs') });
    alice = await registerUser(testServer);
    for (const [name, username] of [['Data AI', 'data_ai'], ['Data Fast', 'data_fast']]) {
      const created = await rawRequest(testServer.url, 'POST', '/api/admin/confab-agents', { token: alice.pb.authStore.token, body: { name, username } });
      expect(created.status).toBe(200);
    }
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await jobs?.close();
    await testServer?.close();
  });

  it('lists the tables of CSV, JSON and XLSX uploads, and says what it does', async () => {
    const { chat, socket } = await dataChat('Tables');
    const tables = await ask(socket, chat.id, '@data tables');
    expect(tables.content).toContain('**sales** (from sales.csv, 4 rows): month DATE, region VARCHAR, amount DOUBLE');
    expect(tables.content).toContain('**team** (from Team.json, 2 rows): name VARCHAR, team VARCHAR, score BIGINT');
    expect(tables.content).toContain('**products_2024** (from Products 2024.xlsx, 2 rows): product VARCHAR, price DOUBLE');
    expect((await ask(socket, chat.id, '@data help')).content).toContain('@data tables');
  });

  it('runs raw SQL with no key and answers with the SQL and a table, and a chart for a series', async () => {
    const { chat, socket } = await dataChat('Raw SQL');
    await postMessage(alice, chat.id, '@data SELECT month, sum(amount) AS total FROM sales GROUP BY month ORDER BY month');
    const answer = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000));
    expect(answer.content).toContain('```sql\nSELECT month, sum(amount) AS total FROM sales GROUP BY month ORDER BY month\n```');
    expect(answer.content).toContain('| month | total |\n| --- | ---: |\n| 2024-01-01 | 10 |\n| 2024-02-01 | 12.5 |\n| 2024-03-01 | 10 |');
    const chart = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000));
    expect(JSON.parse(chart.content)).toEqual({
      type: 'chart',
      title: 'total by month',
      kind: 'line',
      x: { name: 'month', values: ['2024-01-01', '2024-02-01', '2024-03-01'] },
      series: [{ name: 'total', values: [10, 12.5, 10] }],
    });
    const products = await ask(socket, chat.id, '@data ```sql\nSELECT product, price FROM products_2024 ORDER BY price\n```');
    expect(products.content).toContain('| Kettle | 25 |');
    // Its chart (two products) comes next.
    expect(JSON.parse(messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000)).content)).toMatchObject({ type: 'chart' });
    // Four regions: the chart carries every category (chat-ui's ChartMessage labels each one).
    await upload(chat.id, 'regions.csv', 'region,amount\nnorth,10\nsouth,7\neast,4\nwest,12\n');
    await postMessage(alice, chat.id, '@data SELECT region, amount FROM regions');
    const table = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000));
    expect(table.content).toContain('| east | 4 |');
    const regions = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 15_000));
    expect(JSON.parse(regions.content)).toMatchObject({ kind: 'bar', x: { name: 'region', values: ['north', 'south', 'east', 'west'] }, series: [{ name: 'amount', values: [10, 7, 4, 12] }] });
  });

  it('says a question in words needs SQL or a key when there is none', async () => {
    const { chat, socket } = await dataChat('No key');
    const answer = await ask(socket, chat.id, '@data which region sold the most?');
    expect(answer.content).toMatch(/send SQL/);
    expect(answer.content).toContain('My Profile');
  });

  it('refuses hostile SQL with a clear reply each time, and keeps serving', async () => {
    const { chat, socket } = await dataChat('Hostile');
    const other = await dataChat('Other chat');
    await upload(other.chat.id, 'secret_numbers.csv', 'n\n42\n');
    const cases: [string, RegExp][] = [
      ["COPY (SELECT 1) TO '/tmp/x.csv'", /can't run that: COPY is not allowed/],
      ["ATTACH '/tmp/x.db'", /can't run that: ATTACH is not allowed/],
      ["SELECT * FROM read_csv('/etc/passwd')", /can't run that: read_csv\(\) is not allowed/],
      ['INSTALL httpfs', /can't run that: INSTALL is not allowed/],
      ['LOAD httpfs', /can't run that: LOAD is not allowed/],
      ['SELECT 1; DROP TABLE sales', /can't run that: That is 2 statements/],
      ['SELECT * FROM secret_numbers', /query failed: .*secret_numbers does not exist/],
    ];
    for (const [sql, reply] of cases) {
      const answer = await ask(socket, chat.id, `@data ${sql}`);
      expect(answer.content, sql).toMatch(reply);
      expect(answer.content).not.toContain('root:');
    }
    const health = await rawRequest(testServer.url, 'GET', '/api/health', {});
    expect(health.status).toBeLessThan(500);
    expect((await ask(socket, chat.id, '@data SELECT count(*) AS n FROM sales')).content).toContain('| 4 |');
  });

  it('stops a cartesian explosion at the time limit and answers the next query', async () => {
    const { chat, socket, records } = await dataChat('Explosion');
    aiFiles = records.map((record) => ({ originalName: record.original_name, path: new DiskFileStore(testServer.dataDir).localPath(fileKey(record.chat, record.id, record.file)), size: record.size }));
    const started = Date.now();
    const stopped = await ask(socket, chat.id, '@data_fast SELECT count(*) FROM sales a, range(100000000) b, range(100000000) c', 'data_fast');
    expect(stopped.content).toMatch(/ran longer than 0\.5 s and was stopped/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await ask(socket, chat.id, '@data_fast SELECT count(*) AS n FROM team', 'data_fast')).content).toContain('| 2 |');
  });

  it('answers a question in words with a key: the model writes SQL, a failed query is retried, the answer streams with SQL and table', async () => {
    const { chat, socket, records } = await dataChat('Words');
    aiFiles = records.map((record) => ({ originalName: record.original_name, path: new DiskFileStore(testServer.dataDir).localPath(fileKey(record.chat, record.id, record.file)), size: record.size }));
    await postMessage(alice, chat.id, '@data_ai which region sold the most?');
    expect(await socket.next((frame) => frame.type === 'agent_status' && (frame['text'] as string) === 'is running SQL…')).toBeTruthy();
    const answer = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data_ai' && typeof frame['stream_id'] === 'string', 15_000));
    expect(answer.content).toMatch(/^North sold the most\./);
    expect(answer.content).toContain('```sql\nSELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY total DESC\n```');
    expect(answer.content).toContain('| north | 25.5 |');
    const chart = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data_ai', 15_000));
    expect(JSON.parse(chart.content)).toMatchObject({ type: 'chart', kind: 'bar', x: { name: 'region', values: ['north', 'south'] } });
    const request = gateway.requests.at(-1)!;
    expect(request.system).toContain('table sales (4 rows, from sales.csv): month DATE, region VARCHAR, amount DOUBLE');
    // The table is the reply's, once: the model is told not to write another.
    expect(request.system).toContain('do not repeat the rows or write a table');
    expect(answer.content.match(/\| region \| total \|/g)).toHaveLength(1);
    expect(request.invokerId).toBe(alice.record.id);
  });
});
