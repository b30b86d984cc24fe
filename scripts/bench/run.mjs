#!/usr/bin/env node
// `pnpm bench`: fan-out of N WebSocket clients in one chat on ONE confab-server, next to a bare
// `ws` server doing the same broadcast, in the same run (docs/CONTRACTS.md, Chats and realtime).
// Everything stays on 127.0.0.1, counts are fixed, a hard timeout bounds the run. Progress goes to
// stderr, the report to stdout. Options: see options.mjs (e.g. `pnpm bench --clients=200
// --only=bare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseOptions } from './options.mjs';
import { printReport, summarise } from './report.mjs';
import { runScenario } from './scenario.mjs';

const options = parseOptions(process.argv.slice(2));
const cleanups = new Set();
const cleanUp = async () => {
  for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => {});
};
const abort = (reason, code) => {
  console.error(`[bench] ${reason}; shutting down`);
  void cleanUp().finally(() => process.exit(code));
};
const hardTimeout = setTimeout(() => abort(`hard timeout of ${options.timeoutMs} ms reached`, 2), options.timeoutMs);
process.on('SIGINT', () => abort('interrupted', 130));

const gateway = fileURLToPath(new URL('../../packages/server/src/realtime', import.meta.url));
const kinds = options.only === 'both' ? ['bare', 'confab'] : [options.only];
const runs = [];
for (let round = 1; round <= options.rounds; round += 1) {
  for (const kind of kinds) {
    if (kind === 'confab' && !existsSync(gateway)) {
      runs.push({ kind, round, unavailable: 'packages/server/src/realtime does not exist yet (no WebSocket gateway)' });
      continue;
    }
    try {
      runs.push(summarise(await runScenario(kind, options, cleanups), round));
    } catch (error) {
      runs.push({ kind, round, unavailable: error instanceof Error ? error.message : String(error) });
    }
  }
}
clearTimeout(hardTimeout);
printReport(runs, options);
process.exit(runs.some((run) => run.unavailable) ? 1 : 0);
