// The baseline of `pnpm bench:sends`: Fastify and one INSERT per request, nothing else (no auth,
// no membership, no seq, no encryption). SQLite through better-sqlite3 with the server's pragmas,
// or PostgreSQL through a pg pool of the server's size when BENCH_DATABASE_URL names one.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { serveIpc } from './ipc.mjs';

// The same copies @confab/server runs on, for a fair comparison.
const require = createRequire(new URL('../../../packages/server/package.json', import.meta.url));
const Fastify = require('fastify');

const table = 'CREATE TABLE IF NOT EXISTS bench_messages (id TEXT PRIMARY KEY, chat TEXT NOT NULL, author TEXT NOT NULL, content TEXT NOT NULL, created TEXT NOT NULL)';
const insert = await openInsert();
const app = Fastify({ logger: false });
app.post('/api/messages', async (request) => {
  const body = /** @type {{ chat?: unknown, content?: unknown }} */ (request.body ?? {});
  const row = { id: randomUUID().replaceAll('-', '').slice(0, 15), chat: String(body.chat ?? ''), content: String(body.content ?? '').trim(), created: new Date().toISOString() };
  await insert([row.id, row.chat, String(request.headers.authorization ?? '').slice(0, 15), row.content, row.created]);
  return row;
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
serveIpc({ url, close: () => app.close() });

/** @returns {Promise<(values: string[]) => Promise<void>>} */
async function openInsert() {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const sql = 'INSERT INTO bench_messages (id, chat, author, content, created) VALUES ';
  if (databaseUrl) {
    const pg = require('pg');
    const schema = new URL(databaseUrl).searchParams.get('schema');
    const connectionString = databaseUrl.replace(/[?&]schema=[^&]*/, '');
    const pool = new pg.Pool({ connectionString, max: 10, options: `-c search_path="${schema}"` });
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await pool.query(table);
    return async (values) => void (await pool.query(`${sql}($1, $2, $3, $4, $5)`, values));
  }
  const BetterSqlite3 = require('better-sqlite3');
  const connection = new BetterSqlite3(join(process.env.BENCH_DATA_DIR ?? '.', 'bare.db'));
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.exec(table);
  const statement = connection.prepare(`${sql}(?, ?, ?, ?, ?)`);
  return async (values) => void statement.run(values);
}
