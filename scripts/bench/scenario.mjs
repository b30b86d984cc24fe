// One measured run against one server kind: start it in a child, connect the clients, measure
// idle memory per connection, then the fan-out phases, then shut everything down.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServerChild } from './child.mjs';
import { closeClients, connectClients } from './clients.mjs';
import { setUpConfab } from './confabSetup.mjs';
import { runPhase } from './fanout.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...parts) => console.error('[bench]', ...parts);

/**
 * @param {'bare' | 'confab'} kind
 * @param {ReturnType<typeof import('./options.mjs').parseOptions>} options
 * @param {Set<() => Promise<void>>} cleanups run by the caller on a hard timeout
 */
export async function runScenario(kind, options, cleanups) {
  const dataDir = await mkdtemp(join(tmpdir(), `confab-bench-${kind}-`));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  cleanups.add(removeDataDir);
  const child = await startServerChild(kind, { BENCH_DATA_DIR: dataDir });
  cleanups.add(child.stop);
  let sockets = [];
  const closeSockets = () => closeClients(sockets);
  cleanups.add(closeSockets);
  try {
    const target = kind === 'bare'
      ? { websocketUrl: child.url, chatId: 'bench-chat', tokens: Array.from({ length: options.users }, (_, index) => `bench-user-${index}`) }
      : await timed(`${kind}: ${options.users} users and the chat`, () => setUpConfab(child.url, options.users));
    const connect = (count) => connectClients({ url: target.websocketUrl, tokens: target.tokens, chatId: target.chatId, count });

    // One throwaway connection first, so lazily loaded code is not billed to the connections.
    await closeClients(await connect(1));
    const before = await child.memory();
    const connectStartedAt = performance.now();
    sockets = await connect(options.clients);
    const connectSeconds = (performance.now() - connectStartedAt) / 1000;
    log(`${kind}: ${options.clients} clients authenticated and joined in ${connectSeconds.toFixed(1)} s`);
    await sleep(2_000);
    const after = await child.memory();

    const common = { sockets, chatId: target.chatId, senders: options.senders, timeoutMs: options.phaseTimeoutMs };
    await runPhase({ ...common, phase: 'warmup', messages: options.warmupMessages, ratePerSecond: 50 });
    const cpuBefore = await child.cpu();
    const throughput = await timed(`${kind}: throughput phase`, () =>
      runPhase({ ...common, phase: 'throughput', messages: options.throughputMessages, window: options.window }));
    const serverCpuMicroseconds = (await child.cpu()) - cpuBefore;
    const latency = await timed(`${kind}: latency phase`, () =>
      runPhase({ ...common, phase: 'latency', messages: options.latencyMessages, ratePerSecond: options.latencyRatePerSecond }));
    return {
      kind,
      connectSeconds,
      memoryPerConnection: {
        rss: (after.rss - before.rss) / options.clients,
        heap: (after.heapUsed + after.external - before.heapUsed - before.external) / options.clients,
      },
      throughput,
      // Server CPU per delivered message in the throughput phase: a capacity figure that holds
      // even when other processes compete for the CPU and stretch the wall-clock rate.
      serverCpuPerDelivery: serverCpuMicroseconds / Math.max(1, throughput.delivered),
      latency,
    };
  } finally {
    await closeSockets();
    await child.stop();
    await removeDataDir();
    cleanups.delete(closeSockets);
    cleanups.delete(child.stop);
    cleanups.delete(removeDataDir);
  }
}

async function timed(label, action) {
  const startedAt = performance.now();
  const result = await action();
  log(`${label}: ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return result;
}
