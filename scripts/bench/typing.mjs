#!/usr/bin/env node
// `pnpm bench:typing` (docs/CONTRACTS.md, Typing and presence): do typing frames delay messages?
// 50 people in one chat on a real confab-server (SQLite) in a child process on 127.0.0.1; one more
// sends messages at a fixed pace and every socket times send → receive. Rounds alternate quiet
// (nobody types) and typing (all 50 type at once, a frame per keystroke as a client that ignored
// the 3 s rule would, so the server's throttle is exercised too). The target: p99 of delivery with
// typing within 1.2× of quiet. Progress goes to stderr, the report to stdout; exit 0 only when the
// target holds. Bounded: fixed counts, a hard timeout, the child stopped on every exit path.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectClients } from './clients.mjs';
import { setUpConfab } from './confabSetup.mjs';
import { formatTable, percentile } from './stats.mjs';
import { boundedRun } from './bounded.mjs';
import { parseBenchOptions } from './options.mjs';

const options = parseBenchOptions(process.argv.slice(2), {
  typists: 50,
  messages: 150,
  paceMs: 100,
  keystrokeMs: 150,
  rounds: 2,
  timeoutMs: 10 * 60_000,
});
const target = 1.2;
const log = (text) => console.error(`[bench:typing] ${text}`);

const { cleanups, finish } = boundedRun({ timeoutMs: options.timeoutMs, log });

/** servers/confab.mjs (the real startServer from source, SQLite in `dataDir`); resolves with its URL once it listens. */
async function startConfab(dataDir) {
  const child = fork(fileURLToPath(new URL('./servers/confab.mjs', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    execArgv: ['--conditions=@confab/source', '--import', 'tsx'],
    // Every account comes from 127.0.0.1: lift the per-address sign-up limit for this run only.
    env: { ...process.env, BENCH_DATA_DIR: dataDir, NODE_ENV: 'production', CONFAB_SIGNUPS_PER_IP_PER_HOUR: '1000' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`confab-server exited early (code ${code})`)));
    child.on('message', (message) => message?.type === 'ready' && resolve(message.url));
  });
}

/**
 * One round: the sender posts `messages` at the pace; every socket notes each arrival's latency.
 * With `typing`, every typist sends a typing frame each keystroke for the whole round.
 */
async function round({ sender, receivers, typists, chatId, typing, label, count = options.messages }) {
  const sentAt = new Map();
  const latencies = [];
  let typingFramesReceived = 0;
  const prefix = `${label}-`;
  const expected = count * receivers.length;
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label}: ${latencies.length} of ${expected} deliveries within 60 s`)), 60_000);
    const onFrame = (data) => {
      // The load side shares the CPU with the server: typing frames are counted, not parsed.
      const text = data.toString();
      if (text.startsWith('{"type":"typing"')) {
        typingFramesReceived += 1;
        return;
      }
      const frame = JSON.parse(text);
      if (frame.type !== 'new_message' || !frame.message.content.startsWith(prefix)) return;
      const started = sentAt.get(frame.message.content);
      if (started !== undefined) latencies.push(performance.now() - started);
      if (latencies.length === expected) {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const socket of receivers) socket.on('message', onFrame);
    cleanups.push(async () => clearTimeout(timer));
  });
  const keystrokes = typing
    ? typists.map((socket, index) => {
        const frame = JSON.stringify({ type: 'typing', chat_id: chatId });
        // Spread over the keystroke interval, so the frames do not all land in the same tick.
        let interval;
        const start = setTimeout(() => {
          interval = setInterval(() => socket.send(frame), options.keystrokeMs);
        }, (index * options.keystrokeMs) / typists.length);
        return () => {
          clearTimeout(start);
          clearInterval(interval);
        };
      })
    : [];
  await new Promise((resolve) => setTimeout(resolve, typing ? 500 : 0));
  for (let index = 0; index < count; index += 1) {
    const content = `${prefix}${index}`;
    sentAt.set(content, performance.now());
    sender.send(JSON.stringify({ type: 'send_message', chat_id: chatId, content, client_id: content }));
    await new Promise((resolve) => setTimeout(resolve, options.paceMs));
  }
  await done;
  for (const stop of keystrokes) stop();
  for (const socket of receivers) socket.removeAllListeners('message');
  latencies.sort((a, b) => a - b);
  return { label, typing, latencies, typingFramesReceived };
}

async function run() {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-bench-typing-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const url = await startConfab(dataDir);
  log(`server at ${url}; creating ${options.typists + 1} accounts`);
  const { tokens, chatId, websocketUrl } = await setUpConfab(url, options.typists + 1);
  const sockets = await connectClients({ url: websocketUrl, tokens, chatId, count: tokens.length });
  cleanups.push(async () => sockets.forEach((socket) => socket.terminate()));
  const [sender, ...typists] = sockets;
  // Unmeasured: the server's code paths warm up (JIT, statement caches) before either kind is timed.
  log('warm-up');
  await round({ sender, receivers: sockets, typists, chatId, typing: false, label: 'warmup', count: 50 });
  const results = [];
  for (let index = 0; index < options.rounds; index += 1) {
    for (const typing of [false, true]) {
      const label = `${typing ? 'typing' : 'quiet'}${index + 1}`;
      log(`round ${label}`);
      results.push(await round({ sender, receivers: sockets, typists, chatId, typing, label }));
    }
  }
  const pooled = (typing) => results.filter((result) => result.typing === typing).flatMap((result) => result.latencies).sort((a, b) => a - b);
  const rows = results.map((result) => ({
    round: result.label,
    deliveries: String(result.latencies.length),
    'typing frames received': String(result.typingFramesReceived),
    'p50 ms': percentile(result.latencies, 0.5).toFixed(2),
    'p99 ms': percentile(result.latencies, 0.99).toFixed(2),
  }));
  const quietP99 = percentile(pooled(false), 0.99);
  const typingP99 = percentile(pooled(true), 0.99);
  const ratio = typingP99 / quietP99;
  console.log(formatTable(rows));
  console.log(`\np99 of message delivery: quiet ${quietP99.toFixed(2)} ms, ${options.typists} people typing ${typingP99.toFixed(2)} ms`);
  console.log(`ratio typing/quiet: ${ratio.toFixed(2)} (target ≤ ${target}) ${ratio <= target ? 'PASS' : 'FAIL'}`);
  return ratio <= target ? 0 : 1;
}

finish(run());
