// Where the counted list's extra time goes, for `pnpm bench:unread`: the server's own
// ReadsRepository.statesOf (the two queries behind the read-state fields), run directly through
// Kysely on a read-only better-sqlite3 connection to the seeded file, timed, and each query it
// sends shown with SQLite's EXPLAIN QUERY PLAN. Needs `--import tsx` (the repository is TypeScript).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ReadsRepository } from '../../packages/server/src/store/repositories/reads.ts';
import { percentile } from './stats.mjs';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const BetterSqlite3 = require('better-sqlite3');
const { Kysely, SqliteDialect } = require('kysely');

/**
 * @param {{ dataDir: string, readerId: string, chatIds: string[], runs?: number }} options
 * @returns {Promise<{ median: number, p95: number, queries: Array<{ sql: string, median: number, plan: string[] }> }>}
 */
export async function explainReadState({ dataDir, readerId, chatIds, runs = 50 }) {
  const connection = new BetterSqlite3(join(dataDir, 'confab.db'), { readonly: true });
  const captured = [];
  const db = new Kysely({ dialect: new SqliteDialect({ database: connection }), log: (event) => captured.push({ sql: event.query.sql, parameters: event.query.parameters }) });
  try {
    const reads = new ReadsRepository(db);
    return await run(reads, connection, captured, readerId, chatIds, runs);
  } finally {
    await db.destroy();
  }
}

async function run(reads, connection, captured, readerId, chatIds, runs) {
  await reads.statesOf(readerId, chatIds);
  const whole = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await reads.statesOf(readerId, chatIds);
    whole.push(performance.now() - started);
  }
  const queries = [...new Map(captured.map((query) => [query.sql, query])).values()].map((query) => {
    const statement = connection.prepare(query.sql);
    const times = [];
    for (let index = 0; index < runs; index += 1) {
      const started = performance.now();
      statement.all(...query.parameters);
      times.push(performance.now() - started);
    }
    const plan = connection.prepare(`explain query plan ${query.sql}`).all(...query.parameters).map((row) => row.detail);
    const shortSql = query.sql.replace(/(\?, )+\?/g, `… ${query.parameters.length - 1} chat ids …`);
    return { sql: shortSql, median: percentile(times.sort((a, b) => a - b), 0.5), plan };
  });
  whole.sort((a, b) => a - b);
  return { median: percentile(whole, 0.5), p95: percentile(whole, 0.95), queries };
}
