#!/usr/bin/env node
// `pnpm bench:sends`: persisted sends through the record API on confab-server, next to a bare
// Fastify + one INSERT server on the same database, in the same run; on SQLite and PostgreSQL.
// See scripts/bench/README.md. Progress on stderr, the report on stdout; exit code 0 only when
// every target holds.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundedRun } from './bounded.mjs';
import { startServerChild } from './child.mjs';
import { setUpConfab } from './confabSetup.mjs';
import { httpClient } from './dropsHttp.mjs';
import { parseBenchOptions } from './options.mjs';
import { paced, saturate, sender } from './sendsLoad.mjs';
import { printSendsReport } from './sendsReport.mjs';

const options = parseBenchOptions(process.argv.slice(2), {
  databases: 'sqlite,postgres', // either or both
  postgresUrl: process.env.CONFAB_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  connections: 20, // keep-alive connections, each sending its next message when answered
  users: 20, // senders (confab), round-robin over the connections' messages
  messages: 3000, // per saturation phase
  warmup: 6000,
  latencyMessages: 2000, // per paced phase, at half confab's saturation rate
  rounds: 3, // bare and confab alternate; the report takes medians
  logs: 'on', // 'off': confab without its request log lines, to see what they cost
  profile: '', // a directory: confab runs with --cpu-prof and writes its profile there
  timeoutMs: 15 * 60_000,
});
const log = (text) => console.error(`[bench:sends] ${text}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { cleanups, cleanUp, finish } = boundedRun({ timeoutMs: options.timeoutMs, log });

/** Both servers on one database, running for the whole comparison, and a sender for each. */
async function startPair(database) {
  const dataDir = await mkdtemp(join(tmpdir(), 'confab-bench-sends-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const schema = (name) => `${options.postgresUrl}${options.postgresUrl.includes('?') ? '&' : '?'}schema=bench_sends_${process.pid}_${name}`;
  if (database === 'postgres') cleanups.push(() => dropSchemas([`bench_sends_${process.pid}_bare`, `bench_sends_${process.pid}_confab`]));
  const bare = await startServerChild('bareInsert', { BENCH_DATA_DIR: dataDir, ...(database === 'postgres' ? { BENCH_DATABASE_URL: schema('bare') } : {}) });
  cleanups.push(bare.stop);
  const confab = await startServerChild('confab', {
    BENCH_DATA_DIR: dataDir, BENCH_LOGGER: options.logs === 'off' ? '0' : '1', DATABASE_URL: database === 'postgres' ? schema('confab') : '',
    CONFAB_MESSAGES_PER_USER_PER_SECOND: '100000', REDIS_URL: '',
  }, { discardStdout: true, execArgv: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : [] });
  cleanups.push(confab.stop);
  const target = await setUpConfab(confab.url, options.users);
  const common = { connections: options.connections };
  return {
    bare: { child: bare, load: sender({ ...common, url: bare.url, path: '/api/messages', chatId: 'bench-chat', tokens: ['bench-user'] }) },
    confab: { child: confab, load: sender({ ...common, url: confab.url, path: '/api/collections/messages/records', chatId: target.chatId, tokens: target.tokens }), target },
  };
}

async function dropSchemas(schemas) {
  const pg = createRequire(new URL('../../packages/server/package.json', import.meta.url))('pg');
  const client = new pg.Client({ connectionString: options.postgresUrl });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}

/** How many messages the chat holds, read back through the record API. */
async function storedCount(confab) {
  const client = httpClient(confab.child.url, 1);
  const filter = encodeURIComponent(`chat='${confab.target.chatId}'`);
  const list = await client.ok('GET', `/api/collections/messages/records?perPage=1&filter=${filter}`, confab.target.tokens[0]);
  client.close();
  return list.totalItems;
}

async function compare(database) {
  log(`${database}: starting both servers`);
  const pair = await startPair(database);
  const sent = { bare: 0, confab: 0 };
  const phase = async (kind, run, count) => {
    const cpuBefore = await pair[kind].child.cpu();
    const result = await run(pair[kind].load, { count, firstIndex: sent[kind] });
    sent[kind] += count;
    return { ...result, cpuPerSend: ((await pair[kind].child.cpu()) - cpuBefore) / count };
  };
  const back2back = (load, rest) => saturate(load, { ...rest, connections: options.connections });
  for (const kind of ['bare', 'confab']) await phase(kind, back2back, options.warmup);
  const rounds = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const row = { round };
    for (const kind of ['bare', 'confab']) row[kind] = await phase(kind, back2back, options.messages);
    log(`${database}: round ${round}: bare ${row.bare.rate.toFixed(0)}/s, confab ${row.confab.rate.toFixed(0)}/s`);
    rounds.push(row);
  }
  const ratePerSecond = Math.max(1, Math.round(median(rounds.map((row) => row.confab.rate)) / 2));
  log(`${database}: paced at ${ratePerSecond}/s`);
  for (const row of rounds) {
    for (const kind of ['bare', 'confab']) row[`${kind}Paced`] = await phase(kind, (load, rest) => paced(load, { ...rest, ratePerSecond }), options.latencyMessages);
  }
  const errors = { bare: pair.bare.load.errors(), confab: pair.confab.load.errors() };
  const stored = await storedCount(pair.confab);
  pair.bare.load.close();
  pair.confab.load.close();
  await cleanUp();
  return { database, rounds, ratePerSecond, errors, stored, sent: sent.confab };
}

async function run() {
  const results = [];
  for (const database of options.databases.split(',')) results.push(await compare(database));
  return printSendsReport(results, options) ? 0 : 1;
}

finish(run());
