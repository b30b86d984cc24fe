/**
 * @data cannot take the server down (docs/SECURITY.md H10–H12, O7). The server runs from source in
 * a child process of its own (a crash is a dead child, not a dead test worker; sign-in latency is
 * the server's, not the test's) with small limits set through the environment: hostile
 * spreadsheets are refused before loading, a file that exhausts a job's memory kills only that
 * job's process, a flood of cartesian joins is queued, refused or stopped while sign-in stays
 * fast and /api/health says the pool is saturated, the whole-job deadline (queue time included)
 * kills runaway work, DuckDB spills only into a capped folder under the data dir, and hosted agents
 * have an hourly allowance per person and per chat. Both databases.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startSourceServer, type SourceServer } from './support/sourceServer';
import { farCornerXlsx, heavyTextXlsx } from './support/spreadsheets';
import type { TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type Frame, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

const salesCsv = 'month,region,amount\n2024-01-01,north,10\n2024-02-01,north,12.5\n2024-03-01,south,7\n2024-03-01,north,3\n';
const cartesian = 'SELECT count(*) FROM sales a, range(100000000) b, range(100000000) c';
const deadlineSeconds = 12;

const environment = {
  CONFAB_DATA_JOB_SECONDS: String(deadlineSeconds),
  CONFAB_DATA_MEMORY_MB: '48',
  CONFAB_DATA_JOBS: '2',
  CONFAB_DATA_JOBS_PER_CHAT: '1',
  CONFAB_DATA_JOBS_PER_USER: '1',
  CONFAB_AGENT_CALLS_PER_USER_PER_HOUR: '25',
  CONFAB_AGENT_CALLS_PER_CHAT_PER_HOUR: '40',
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

describe.each(variants)('@data under attack ($name)', (variant) => {
  let server: SourceServer;
  const sockets: TestSocket[] = [];
  let signer: RegisteredUser;

  /** The fixtures only need a way to make SDK clients. */
  const asTestServer = () =>
    ({
      client: () => {
        const pb = new PocketBase(server.url);
        pb.autoCancellation(false);
        return pb;
      },
    }) as unknown as TestServer;
  const person = () => registerUser(asTestServer());

  const upload = async (who: RegisteredUser, chatId: string, name: string, content: string | Buffer) => {
    const form = new FormData();
    form.set('chat', chatId);
    form.set('file', new Blob([new Uint8Array(typeof content === 'string' ? Buffer.from(content) : content)]), name);
    const response = await fetch(`${server.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${who.pb.authStore.token}` }, body: form });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  /** A chat of `owner` with sales.csv (and `more` files), the owner's socket joined. */
  const salesChat = async (owner: RegisteredUser, name: string, more: [string, Buffer][] = [], participants: string[] = []) => {
    const chat = await createChat(owner, { name, participants });
    await upload(owner, chat.id, 'sales.csv', salesCsv);
    for (const [fileName, content] of more) await upload(owner, chat.id, fileName, content);
    const socket = await authenticatedSocket(server.url, owner.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    return { chat, socket };
  };

  const fromData = (chatId: string) => (frame: Frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data' && messageOf(frame).chat_id === chatId;
  const ask = async (who: RegisteredUser, socket: TestSocket, chatId: string, content: string, timeoutMs = 20_000) => {
    await postMessage(who, chatId, content);
    return messageOf(await socket.next(fromData(chatId), timeoutMs));
  };

  /** One sign-in of `signer`, timed. */
  const signIn = async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/collections/users/auth-with-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identity: signer.username, password: signer.password }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(response.status).toBe(200);
    return performance.now() - started;
  };

  const health = async () => (await (await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5_000) })).json()) as { message: string; code: number; data: Record<string, unknown> };

  beforeAll(async () => {
    server = await startSourceServer(variant, environment);
    signer = await person();
  }, 60_000);

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await server?.dispose();
  }, 30_000);

  it('lists an A1+XFD100000 spreadsheet (and one whose dimension lies) as skipped with the reason, and keeps serving @data and sign-in', async () => {
    const owner = await person();
    const { chat, socket } = await salesChat(owner, 'Far corner', [
      ['far corner.xlsx', farCornerXlsx()],
      // The same cells under a dimension that claims two columns: the cells themselves are counted.
      ['liar.xlsx', farCornerXlsx('A1:B2')],
    ]);
    const tables = await ask(owner, socket, chat.id, '@data tables', 30_000);
    expect(tables.content).toContain('**sales** (from sales.csv, 4 rows)');
    expect(tables.content).toMatch(/far corner\.xlsx could not be loaded: its sheet declares 100,000 rows × 16,384 columns \(A1:XFD100000\)/);
    expect(tables.content).toMatch(/liar\.xlsx could not be loaded: its sheet has cells out to row 100,000 and column 16,384 \(XFD100000\)/);
    expect(tables.content).toMatch(/at most [\d,]+ rows, [\d,]+ columns and [\d,]+ cells/);
    expect(server.alive()).toBe(true);
    expect((await ask(owner, socket, chat.id, '@data SELECT count(*) AS n FROM sales')).content).toContain('| 4 |');
    expect(await signIn()).toBeLessThan(5_000);
  }, 90_000);

  it('ends a file that exhausts a job’s memory in its own process: skipped with the reason, and the server keeps serving', async () => {
    const owner = await person();
    // 200,000 cells of 300 characters: within the size caps (and 0.9 MB zipped), beyond the 96 MB heap of a 48 MB job.
    const { chat, socket } = await salesChat(owner, 'Heavy', [['heavy.xlsx', heavyTextXlsx(20_000, 10, 300)]]);
    const tables = await ask(owner, socket, chat.id, '@data tables', 45_000);
    expect(tables.content).toMatch(/heavy\.xlsx could not be loaded: it needs more memory than one @data job has/);
    expect(tables.content).toContain('**sales** (from sales.csv, 4 rows)');
    expect(server.alive()).toBe(true);
    // The next job skips the file at once (the server remembers it) and answers.
    expect((await ask(owner, socket, chat.id, '@data SELECT sum(amount) AS total FROM sales')).content).toContain('| 32.5 |');
    expect(await signIn()).toBeLessThan(5_000);
  }, 90_000);

  it('answers all 20 cartesian joins of a flood within a bounded time, keeps sign-in under 1 s, and /api/health reports the saturated pool', async () => {
    const flooder = await person();
    const { chat, socket } = await salesChat(flooder, 'Flood');
    const baseline = median([await signIn(), await signIn(), await signIn()]);
    const started = Date.now();
    await Promise.all(Array.from({ length: 20 }, () => postMessage(flooder, chat.id, `@data ${cartesian}`)));
    // A sign-in and a health check every 400 ms while the flood runs, each on its own (one stuck
    // sign-in does not hide the ones after it): the median is what a person signing in then meets.
    const signIns: Promise<number>[] = [];
    const healthSeen: Promise<{ message: string; pool: unknown }>[] = [];
    const sampler = setInterval(() => {
      signIns.push(signIn());
      healthSeen.push(health().then((answer) => ({ message: answer.message, pool: (answer.data['agents'] as Record<string, unknown> | undefined)?.['data'] })));
    }, 400);
    const answers: string[] = [];
    try {
      for (let index = 0; index < 20; index += 1) answers.push(messageOf(await socket.next(fromData(chat.id), (deadlineSeconds + 20) * 1000)).content);
    } finally {
      clearInterval(sampler);
    }
    const latencies = await Promise.all(signIns);
    const elapsed = Date.now() - started;
    console.log(`flood: 20 answers in ${elapsed} ms; sign-in median ${Math.round(median(latencies))} ms over ${latencies.length} (max ${Math.round(Math.max(...latencies))}), before the flood ${Math.round(baseline)} ms`);
    for (const answer of answers) expect(answer).toMatch(/@data is busy|stopped this job after|ran longer than|\| count_star\(\) \|/);
    expect(answers.filter((answer) => /@data is busy/.test(answer)).length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan((deadlineSeconds + 15) * 1000);
    expect(latencies.length).toBeGreaterThanOrEqual(3);
    expect(median(latencies)).toBeLessThan(1_000);
    expect(await Promise.all(healthSeen)).toContainEqual({ message: expect.stringMatching(/the @data agent pool is saturated/), pool: expect.objectContaining({ saturated: true }) });
    // Drained: the next query runs and the pool is idle again.
    expect((await ask(flooder, socket, chat.id, '@data SELECT count(*) AS n FROM sales')).content).toContain('| 4 |');
    // The job frees its slot once its answer is posted (and the original's reply count told), a moment after the answer arrives.
    let idle = await health();
    for (let tries = 0; tries < 30 && (idle.data['agents'] as { data?: { running?: number } } | undefined)?.data?.running !== 0; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      idle = await health();
    }
    expect(idle).toMatchObject({ message: 'API is healthy.', code: 200, data: { agents: { data: { running: 0, queued: 0, saturated: false } } } });
  }, 120_000);

  it('kills a runaway job at the whole-job deadline, counting the time it waited in the queue, and answers the next query', async () => {
    const owner = await person();
    const { chat, socket } = await salesChat(owner, 'Runaway');
    const started = Date.now();
    await postMessage(owner, chat.id, `@data ${cartesian}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postMessage(owner, chat.id, `@data ${cartesian.replace('count(*)', 'max(b.range)')}`);
    const first = messageOf(await socket.next(fromData(chat.id), (deadlineSeconds + 10) * 1000));
    const second = messageOf(await socket.next(fromData(chat.id), (deadlineSeconds + 10) * 1000));
    const elapsed = Date.now() - started;
    // The first is interrupted by the query limit (10 s) or killed at the deadline, whichever comes first.
    expect(first.content).toMatch(new RegExp(`ran longer than 10 s|stopped this job after ${deadlineSeconds} s`));
    // Queued behind the first, the second starts late and is killed at its own deadline, not one deadline later.
    expect(second.content).toMatch(new RegExp(`stopped this job after ${deadlineSeconds} s \\(its time limit, [\\d.]+ s of it waiting`));
    expect(elapsed).toBeLessThan((deadlineSeconds + 4) * 1000);
    expect((await ask(owner, socket, chat.id, '@data SELECT count(*) AS n FROM sales')).content).toContain('| 4 |');
  }, 60_000);

  it('spills to a capped folder under the data dir, removed after the job, never to the working directory', async () => {
    const owner = await person();
    const { chat, socket } = await salesChat(owner, 'Spill');
    const jobsRoot = join(server.dataDir, 'tmp', 'data-jobs');
    const spilled = new Set<string>();
    const inWorkingDirectory = new Set<string>();
    const watch = setInterval(() => {
      for (const name of readdirSync(server.cwd)) inWorkingDirectory.add(name);
      if (!existsSync(jobsRoot)) return;
      for (const job of readdirSync(jobsRoot)) {
        try {
          for (const name of readdirSync(join(jobsRoot, job))) if (name.startsWith('duckdb_temp_storage')) spilled.add(name);
        } catch {
          // The job ended between the two reads.
        }
      }
    }, 25);
    let answer: string;
    try {
      answer = (await ask(owner, socket, chat.id, '@data SELECT count(*) AS n FROM (SELECT range % 1000 AS a, range AS b FROM range(20000000) ORDER BY b DESC)', 30_000)).content;
    } finally {
      clearInterval(watch);
    }
    expect(answer).toContain('| 20000000 |');
    expect([...inWorkingDirectory]).toEqual([]);
    expect(spilled.size).toBeGreaterThan(0);
    await expect.poll(() => (existsSync(jobsRoot) ? readdirSync(jobsRoot) : []), { timeout: 5_000 }).toEqual([]);
  }, 60_000);

  it('gives each person and each chat an hourly allowance of hosted-agent requests, then a 429-style notice', async () => {
    const first = await person();
    const second = await person();
    const { chat, socket } = await salesChat(first, 'Allowance', [], [second.record.id]);
    const secondSocket = await authenticatedSocket(server.url, second.pb.authStore.token);
    sockets.push(secondSocket);
    await secondSocket.join(chat.id);
    for (let index = 0; index < 25; index += 1) await postMessage(first, chat.id, '@data help');
    for (let index = 0; index < 25; index += 1) await socket.next(fromData(chat.id), 15_000);
    await postMessage(first, chat.id, '@data help');
    const personal = await socket.next((frame) => frame.type === 'agent_notice', 15_000);
    expect(personal).toMatchObject({ chat_id: chat.id, agent_username: 'data' });
    expect(String(personal['text'])).toMatch(/^Too many requests: you have asked hosted agents 25 times this hour.*ask again in \d+ minutes?/i);
    // The chat's own allowance (40) counts everyone in it: 25 from the first person, 15 from the second.
    for (let index = 0; index < 15; index += 1) await postMessage(second, chat.id, '@data help');
    for (let index = 0; index < 15; index += 1) await secondSocket.next(fromData(chat.id), 15_000);
    await postMessage(second, chat.id, '@data help');
    const chatWide = await secondSocket.next((frame) => frame.type === 'agent_notice', 15_000);
    expect(String(chatWide['text'])).toMatch(/^Too many requests: this chat has asked hosted agents 40 times this hour/i);
  }, 60_000);
});
