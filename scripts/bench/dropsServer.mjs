// One confab-server for `pnpm bench:drops`, from source, on 127.0.0.1 with SQLite in BENCH_DATA_DIR
// (servers/confab.mjs plus one extra IPC request). Started by drops.mjs with
// `--conditions=@confab/source --import tsx`.
//
// 'refresh' runs the trending refresh on the live server's own DropsService (its connection, its
// event loop, requests still arriving) and answers how long it took and the longest the event
// loop was held meanwhile. The server keeps its services to itself, so the instance is noted the
// first time a feed is served through it (the bench asks for a feed before refreshing).
import { startServer } from '../../packages/server/src/index.ts';
import { DropsService } from '../../packages/server/src/services/drops.ts';
import { serveIpc } from './servers/ipc.mjs';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');

let liveDrops;
const feed = DropsService.prototype.feed;
DropsService.prototype.feed = function noteInstance(...args) {
  liveDrops ??= this;
  return feed.apply(this, args);
};

const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false });
process.on('message', async (message) => {
  if (message?.type !== 'refresh') return;
  if (liveDrops === undefined) return void process.send({ type: 'refresh', id: message.id, error: 'no feed served yet' });
  const stalls = watchEventLoop();
  const started = performance.now();
  await liveDrops.refreshTrending();
  const durationMs = performance.now() - started;
  const longestStallMs = await stalls.stop();
  process.send({ type: 'refresh', id: message.id, durationMs, longestStallMs });
});

/**
 * The longest the event loop went without running a 1 ms timer. (perf_hooks' delay histogram
 * samples from a timer too, so a stall that lasts as long as the watch records nothing there.)
 */
function watchEventLoop() {
  let last = performance.now();
  let longest = 0;
  let timer = setTimeout(function tick() {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  }, 1);
  return {
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 5));
      clearTimeout(timer);
      return longest;
    },
  };
}
serveIpc({ url: server.url, close: () => server.close() });
