#!/usr/bin/env node
// `pnpm bench:unread` (docs/CONTRACTS.md, Unread state): the chat list with the caller's unread
// counts against the same list without them, for a person in 500 chats of 10,000 messages each, on
// a real confab-server (SQLite) in a child process on 127.0.0.1. See scripts/bench/README.md.
// Progress goes to stderr, the report to stdout; the exit code is 0 only when the target holds.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpClient } from './dropsHttp.mjs';
import { formatTable, kib, percentile } from './stats.mjs';
import { explainReadState } from './unreadQuery.mjs';
import { expectedStates, seedUnread, tableCounts } from './unreadSeed.mjs';
import { parseBenchOptions } from './options.mjs';

const options = parseBenchOptions(process.argv.slice(2), {
  chats: 500,
  messages: 10_000,
  requests: 200,
  warmup: 20,
  timeoutMs: 15 * 60_000,
});
const target = 2;
const password = 'bench unread password';
const log = (text) => console.error(`[bench:unread] ${text}`);

// The chat list as the client asks it (ChatsService.list: getFullList, batch 500), and the two
// field lists: every top-level field of a chat record but the read state, and those plus it.
const readStateFields = ['last_read_seq', 'unread_count', 'mention_count', 'muted'];
const plainFields = ['id', 'collectionId', 'collectionName', 'name', 'description', 'creator', 'participants', 'admins', 'email_address', 'inbox_address',
  'is_inbox', 'auto_route_enabled', 'auto_route_agent', 'agent_permissions', 'last_seq', 'created', 'updated', 'expand'];
const listPath = '/api/collections/chats/records?page=1&perPage=500&skipTotal=1&sort=-updated&expand=participants%2Cadmins';
const variants = [
  { name: 'plain', label: 'plain list (fields without the read state)', path: `${listPath}&fields=${encodeURIComponent(plainFields.join(','))}` },
  { name: 'counted', label: 'counted list (the same fields + the read state)', path: `${listPath}&fields=${encodeURIComponent([...plainFields, ...readStateFields].join(','))}` },
  { name: 'client', label: "the client's request (no fields: everything)", path: listPath },
];

const cleanups = [];
const cleanUp = async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
};
let abortCode; // set once an abort has begun: the run's own failure that follows is not the story
const abort = (reason, code) => {
  if (abortCode !== undefined) return;
  abortCode = code;
  log(`${reason}; shutting down`);
  void cleanUp().finally(() => process.exit(code));
};
const hardTimeout = setTimeout(() => abort(`hard timeout of ${options.timeoutMs} ms reached`, 2), options.timeoutMs);
process.on('SIGINT', () => abort('interrupted', 130));
process.on('SIGTERM', () => abort('terminated', 143));

/** servers/confab.mjs (the real startServer from source, SQLite in `dataDir`, 127.0.0.1, port 0); resolves once it listens. */
async function startConfab(dataDir) {
  const child = fork(fileURLToPath(new URL('./servers/confab.mjs', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    execArgv: ['--conditions=@confab/source', '--import', 'tsx'],
    env: { ...process.env, BENCH_DATA_DIR: dataDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
  };
  cleanups.push(stop);
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`confab-server exited early (code ${code})`)));
    child.on('message', (message) => message?.type === 'ready' && resolve(message.url));
  });
  return { url, stop };
}

/** One GET on a keep-alive connection, timed from the request to the answer's last byte (parsing after). */
function getter(baseUrl) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  cleanups.push(async () => agent.destroy());
  const { hostname, port } = new URL(baseUrl);
  return (path, token) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const outgoing = httpRequest({ agent, hostname, port, method: 'GET', path, headers: { authorization: token } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const ms = performance.now() - started;
          const bytes = Buffer.concat(chunks);
          if (response.statusCode !== 200) return reject(new Error(`GET ${path} → ${response.statusCode} ${bytes.toString('utf8').slice(0, 300)}`));
          resolve({ ms, bytes: bytes.length, text: bytes.toString('utf8') });
        });
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
}

/** The answers' agreement: the same chats in the same order, the counts (right ones) only where asked for. */
function checkAnswers(answers, expected) {
  const problems = [];
  const ids = Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.items.map((record) => record.id).join(',')]));
  if (answers.plain.items.length !== options.chats) problems.push(`the plain list has ${answers.plain.items.length} chats, not ${options.chats}`);
  for (const name of ['counted', 'client']) if (ids[name] !== ids.plain) problems.push(`the ${name} list's chats or order differ from the plain list's`);
  const updated = answers.plain.items.map((record) => record.updated);
  if (updated.some((value, index) => index > 0 && value > updated[index - 1])) problems.push('the list is not newest activity first');
  for (const record of answers.plain.items) {
    const present = readStateFields.filter((field) => field in record);
    if (present.length > 0) problems.push(`plain record ${record.id} carries ${present.join(', ')}`);
    if (record.expand?.participants?.length !== 2) problems.push(`plain record ${record.id} lacks its expanded participants`);
  }
  for (const name of ['counted', 'client']) {
    for (const record of answers[name].items) {
      const want = expected.get(record.id);
      const got = Object.fromEntries(readStateFields.map((field) => [field, record[field]]));
      if (want === undefined || readStateFields.some((field) => got[field] !== want[field])) {
        problems.push(`${name} record ${record.id}: ${JSON.stringify(got)}, counted from the rows: ${JSON.stringify(want)}`);
      }
      if (record.expand?.participants?.length !== 2) problems.push(`${name} record ${record.id} lacks its expanded participants`);
    }
  }
  return problems;
}

async function run() {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-unread-bench-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  log(`data dir ${dataDir}; first start: migrations, the reader registers`);
  const first = await startConfab(dataDir);
  const setup = httpClient(first.url);
  await setup.ok('POST', '/api/collections/users/records', undefined, { username: 'bench_reader', email: 'bench_reader@example.com', password, passwordConfirm: password });
  setup.close();
  await first.stop();

  log(`seeding ${options.chats} chats × ${options.messages} messages straight into confab.db`);
  const started = performance.now();
  const seeded = seedUnread({ dataDir, readerUsername: 'bench_reader', chats: options.chats, messages: options.messages, nowMs: Date.now(), log });
  const seedSeconds = (performance.now() - started) / 1000;
  const counts = tableCounts(dataDir);
  log(`seeded in ${seedSeconds.toFixed(1)} s: ${Object.entries(counts).map(([table, rows]) => `${rows} ${table}`).join(', ')}`);
  const expected = expectedStates(dataDir, seeded.readerId);

  const server = await startConfab(dataDir);
  const client = httpClient(server.url);
  cleanups.push(async () => client.close());
  const token = await client.signIn('bench_reader', password);
  const get = getter(server.url);

  // One answer of each, checked before anything is timed.
  const answers = {};
  for (const variant of variants) answers[variant.name] = JSON.parse((await get(variant.path, token)).text);
  const problems = checkAnswers(answers, expected);
  for (const problem of problems.slice(0, 10)) log(`CHECK: ${problem}`);
  if (problems.length > 10) log(`CHECK: … and ${problems.length - 10} more`);

  log(`${options.warmup} warm-up + ${options.requests} measured rounds, each request once per round, one at a time, the order rotating`);
  const times = Object.fromEntries(variants.map((variant) => [variant.name, []]));
  const sizes = {};
  for (let round = 0; round < options.warmup + options.requests; round += 1) {
    for (let turn = 0; turn < variants.length; turn += 1) {
      const variant = variants[(round + turn) % variants.length];
      const answer = await get(variant.path, token);
      sizes[variant.name] = answer.bytes;
      if (round >= options.warmup) times[variant.name].push(answer.ms);
    }
    if ((round + 1) % 50 === 0) log(`round ${round + 1} of ${options.warmup + options.requests}`);
  }
  const stats = Object.fromEntries(variants.map((variant) => {
    const sorted = times[variant.name].sort((a, b) => a - b);
    return [variant.name, { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) }];
  }));

  log('the read-state queries alone, straight on the file (ReadsRepository.statesOf through Kysely), with their plans');
  const chatIds = answers.plain.items.map((record) => record.id);
  const direct = await explainReadState({ dataDir, readerId: seeded.readerId, chatIds });
  return report({ seedSeconds, counts, seeded, expected, answers, problems, stats, sizes, direct });
}

function report({ seedSeconds, counts, seeded, expected, answers, problems, stats, sizes, direct }) {
  const ms = (value) => value.toFixed(2);
  const states = [...expected.values()];
  console.log(`\nChat list with unread counts: a person in ${options.chats} chats of ${options.messages} messages each (SQLite), ` +
    `${options.requests} requests of each kind after ${options.warmup} warm-up rounds, one at a time, alternating.`);
  console.log(`Seeded straight into confab.db in ${seedSeconds.toFixed(1)} s: ${counts.messages} messages, ${counts.chats} chats, ${counts.chat_participants} participants, ` +
    `${counts.chat_reads} read positions, ${counts.message_mentions} mentions (${seeded.users} other people). The reader's chats: ${seeded.byKind}; ` +
    `${states.filter((state) => state.muted).length} muted; unread ${Math.min(...states.map((state) => state.unread_count))}–` +
    `${Math.max(...states.map((state) => state.unread_count))} (${states.reduce((sum, state) => sum + state.unread_count, 0)} in all), ` +
    `unread mentions ${states.reduce((sum, state) => sum + state.mention_count, 0)} in ${states.filter((state) => state.mention_count > 0).length} chats.`);
  console.log(`GET ${listPath}&fields=…\n`);
  console.log(formatTable(variants.map((variant) => ({
    request: variant.label, 'median ms': ms(stats[variant.name].median), 'p95 ms': ms(stats[variant.name].p95),
    'answer size': kib(sizes[variant.name]), chats: String(answers[variant.name].items.length),
    'with counts': String(answers[variant.name].items.filter((record) => 'unread_count' in record).length),
  }))));
  const ratio = stats.counted.median / stats.plain.median;
  const p95Ratio = stats.counted.p95 / stats.plain.p95;
  const clientRatio = stats.client.median / stats.plain.median;
  console.log(`\ncounted / plain: median ${ratio.toFixed(2)}× (target ≤ ${target}×: ${ratio <= target ? 'pass' : 'FAIL'}), p95 ${p95Ratio.toFixed(2)}×; ` +
    `the client's request / plain: median ${clientRatio.toFixed(2)}×.`);
  console.log(`Answers checked: ${problems.length === 0 ? 'the same chats in the same order in all three, newest activity first; ' +
    'every counted record\'s last_read_seq, unread_count, mention_count and muted equal to what its rows say (messages and mentions after the position), none in the plain records' : `${problems.length} PROBLEMS (see stderr)`}.`);

  console.log(`\nThe read state alone, ReadsRepository.statesOf(reader, ${answers.plain.items.length} chat ids) straight on the file: ` +
    `median ${ms(direct.median)} ms, p95 ${ms(direct.p95)} ms (the counted list's extra time over HTTP: ${ms(stats.counted.median - stats.plain.median)} ms).`);
  for (const query of direct.queries) {
    console.log(`- ${ms(query.median)} ms: ${query.sql}`);
    for (const line of query.plan) console.log(`    plan: ${line}`);
  }

  const passed = ratio <= target && problems.length === 0;
  console.log(`\nbench:unread ${passed ? 'PASS' : 'FAIL'}: the counted chat list ${ratio.toFixed(2)}× the plain list (median ${ms(stats.counted.median)} ms vs ` +
    `${ms(stats.plain.median)} ms, target ≤ ${target}×) at ${options.chats} chats × ${options.messages} messages; answers ${problems.length === 0 ? 'checked' : 'WRONG'}.`);
  return passed;
}

let passed = false;
try {
  passed = await run();
} catch (error) {
  if (abortCode === undefined) log(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  clearTimeout(hardTimeout);
  await cleanUp();
}
process.exit(abortCode ?? (passed ? 0 : 1));
