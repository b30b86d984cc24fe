import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startWalCheckpoints } from './walCheckpoints';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function walDatabase() {
  const dir = mkdtempSync(join(tmpdir(), 'confab-wal-'));
  dirs.push(dir);
  const path = join(dir, 'confab.db');
  const connection = new BetterSqlite3(path);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.exec('create table notes (id integer primary key, body text not null)');
  return { connection, path };
}

/** 3,000 commits of 1 KB each, back to back: about 3 MB, far past SQLite's own 1,000-page checkpoint. */
function writeMany(connection: BetterSqlite3.Database) {
  const insert = connection.prepare('insert into notes (body) values (?)');
  for (let index = 0; index < 3_000; index += 1) insert.run('x'.repeat(1_024));
}

async function until(check: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until `measure` has not changed for 300 ms: the worker's checkpoints have caught up. */
async function settled(measure: () => number, ms = 10_000) {
  const deadline = Date.now() + ms;
  let last = measure();
  let since = Date.now();
  while (Date.now() - since < 300) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = measure();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

describe('write-ahead log checkpoints on a worker thread', () => {
  it('the connection no longer checkpoints in its commits; the worker copies the log into the database', async () => {
    const { connection, path } = walDatabase();
    const checkpoints = startWalCheckpoints(connection, path, { intervalMs: 50 });
    try {
      expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const before = statSync(path).size;
      writeMany(connection);
      // Pages reach the database file only through a checkpoint, and this connection runs none.
      await until(() => statSync(path).size > before + 2_000_000);
      expect(connection.prepare('select count(*) as n from notes').get()).toEqual({ n: 3_000 });
      // Once a checkpoint has copied everything, the next commit starts the log from its beginning
      // again: the same 3,000 commits once more reuse the file (about the same size, the tree being a
      // little deeper) instead of doubling it.
      await settled(() => statSync(path).size);
      const walSize = statSync(`${path}-wal`).size;
      writeMany(connection);
      expect(statSync(`${path}-wal`).size).toBeLessThan(walSize * 1.2);
    } finally {
      await checkpoints.stop();
      connection.close();
    }
  });

  it('falls back to SQLite checkpointing by itself when the worker cannot run, and says why', async () => {
    const { connection } = walDatabase();
    const problems: string[] = [];
    // A path that does not exist: the worker's connection refuses to open it.
    const checkpoints = startWalCheckpoints(connection, join(tmpdir(), 'confab-no-such-dir', 'confab.db'), { intervalMs: 50, onError: (problem) => problems.push(problem) });
    try {
      await until(() => problems.length > 0);
      await until(() => connection.pragma('wal_autocheckpoint', { simple: true }) === 1000);
      expect(problems.join(' ')).toMatch(/directory does not exist|unable to open|no such file/i);
    } finally {
      await checkpoints.stop();
      connection.close();
    }
  });

  it('stop() ends the worker and leaves the connection as it was', async () => {
    const { connection, path } = walDatabase();
    const checkpoints = startWalCheckpoints(connection, path, { intervalMs: 50 });
    await checkpoints.stop();
    await checkpoints.stop();
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    connection.close();
  });
});
