import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as BetterSqlite3Database } from 'better-sqlite3';

/**
 * SQLite checkpoints the write-ahead log into the database file by itself inside the commit that
 * takes the log past 1,000 pages: that commit, and every request queued behind it on the one
 * thread, waits while pages are copied and the file is synced. Under steady sends that doubled
 * their p99 latency (`pnpm bench:sends`). So the server's own connection never checkpoints; a
 * worker thread with a connection of its own runs a PASSIVE checkpoint every `intervalMs`. In WAL
 * mode a passive checkpoint neither waits for writers nor blocks them, and once it has copied
 * everything the next commit starts the log from its beginning again, so it stays small.
 *
 * Should the worker fail or exit, the connection goes back to checkpointing by itself: the log
 * never grows without bound.
 */
export interface WalCheckpointer {
  stop(): Promise<void>;
}

// The worker is a few lines of CommonJS run from a string, so the server needs no second entry
// file in its build; better-sqlite3 is resolved here and handed over by path.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.path, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error && error.message || error)); }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export function startWalCheckpoints(connection: BetterSqlite3Database, path: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): WalCheckpointer {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
  connection.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(workerSource, { eval: true, workerData: { driverPath, path, intervalMs: options.intervalMs ?? 1_000 } });
  worker.unref();
  let stopping = false;
  let exited = false;
  const fallBack = (message: string) => {
    options.onError?.(message);
    // The default again: the connection checkpoints in its own commits, as SQLite does unasked.
    if (connection.open) connection.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('message', (message: string) => options.onError?.(message));
  worker.on('error', (error) => fallBack(error.message));
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      if (!stopping) fallBack('the checkpoint worker stopped');
      resolve();
    }),
  );
  return {
    async stop() {
      stopping = true;
      if (!exited) worker.postMessage('stop');
      await exit;
    },
  };
}
