#!/usr/bin/env node
// `pnpm bench:drops` (docs/CONTRACTS.md, Drops): the feeds' page 1 at 100,000 drops against the
// same at 1,000, like toggles per second with exact counts, and the trending refresh, on real
// confab-servers (SQLite) in child processes on 127.0.0.1. See scripts/bench/README.md. Progress
// goes to stderr, the report to stdout; the exit code is 0 only when every target holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundedRun } from './bounded.mjs';
import { httpClient, startDropsServer } from './dropsHttp.mjs';
import { feeds, measureFeeds, refreshUnderLoad, summary, toggleLikes } from './dropsPhases.mjs';
import { printReport } from './dropsReport.mjs';
import { checkCounters, seedDrops } from './dropsSeed.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const number = (name, fallback) => (args[name] === undefined ? fallback : Number(args[name]));
const options = {
  drops: number('drops', 100_000),
  smallDrops: number('smallDrops', 1_000),
  likesPerDrop: number('likesPerDrop', 10),
  viewsPerDrop: number('viewsPerDrop', 10),
  users: number('users', 3_000),
  chats: number('chats', 1_000),
  followed: number('followed', 50),
  requests: number('requests', 200),
  warmup: number('warmup', 20),
  clients: number('clients', 64),
  seconds: number('seconds', 5),
  timeoutMs: number('timeoutMs', 15 * 60_000),
};
const targets = { feedRatio: 2, togglesPerSecond: 1_500 };
const password = 'bench drops password';
const log = (text) => console.error(`[bench:drops] ${text}`);

const { cleanups, finish } = boundedRun({ timeoutMs: options.timeoutMs, log });

/**
 * A data dir whose schema the server's own migrations made, with the reader registered over
 * HTTP; then, the server stopped, seeded straight into its SQLite file; then the server running
 * on it again and the reader signed in.
 */
async function prepare(name, drops) {
  const dataDir = mkdtempSync(join(tmpdir(), `confab-drops-bench-${name}-`));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startDropsServer(dataDir);
  cleanups.push(() => first.stop());
  const setup = httpClient(first.url);
  await setup.ok('POST', '/api/collections/users/records', undefined, { username: 'bench_reader', email: 'bench_reader@example.com', password, passwordConfirm: password });
  setup.close();
  await first.stop();
  const started = performance.now();
  const seeded = seedDrops({
    dataDir, readerUsername: 'bench_reader', drops, likes: drops * options.likesPerDrop, views: drops * options.viewsPerDrop,
    users: options.users, chats: options.chats, followedChats: options.followed, followsPerUser: 15, nowMs: Date.now(),
  });
  log(`${name}: seeded ${drops} drops, ${drops * options.likesPerDrop} likes and as many views, ${seeded.users} users, ${seeded.chats} chats, ` +
    `${seeded.follows} follows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const server = await startDropsServer(dataDir);
  cleanups.push(() => server.stop());
  const client = httpClient(server.url, Math.max(16, options.clients));
  cleanups.push(async () => client.close());
  return { name, dataDir, server, client, token: await client.signIn('bench_reader', password) };
}

async function run() {
  const label = (drops) => (drops >= 1000 ? `${drops / 1000}k` : String(drops));
  const small = await prepare(label(options.smallDrops), options.smallDrops);
  const large = await prepare(label(options.drops), options.drops);

  log(`feeds: ${options.warmup} warm-up + ${options.requests} measured rounds on both servers, interleaved`);
  const latency = await measureFeeds([small, large], options);
  const feedRows = feeds.map((feed) => {
    const [smallResult, largeResult] = [latency[small.name][feed.name], latency[large.name][feed.name]];
    const [few, many] = [summary(smallResult.sorted), summary(largeResult.sorted)];
    const ratio = many.median / few.median;
    return {
      feed: feed.name, few, many, ratio, p95Ratio: many.p95 / few.p95, pass: ratio <= targets.feedRatio,
      pageTwo: [summary(smallResult.pageTwo).median, summary(largeResult.pageTwo).median], totals: `${smallResult.total} / ${largeResult.total}`,
    };
  });

  log(`like toggles: signing in ${options.clients} people`);
  const tokens = [];
  for (let index = 1; index <= options.clients; index += 1) tokens.push(await large.client.signIn(`bench_user_${index}`, password));
  const before = checkCounters(large.dataDir);
  log(`like toggles: ${options.clients} keep-alive clients for ${options.seconds} s`);
  const toggles = await toggleLikes(large.client, tokens, { dropCount: options.drops, seconds: options.seconds });
  const after = checkCounters(large.dataDir);

  log('trending refresh on the live server, trending page 1 loading meanwhile');
  const refresh = { ...(await refreshUnderLoad(large.server, large.client, large.token)), idleSorted: latency[large.name].trending.sorted };
  return printReport({ options, targets, small, large, feedRows, toggles, counters: { before, after }, refresh });
}

finish(run().then((passed) => (passed ? 0 : 1)));
