import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import PocketBase from 'pocketbase';
import { startServer, type ConfabServer, type ServerOptions } from '../../src/index';
import type { DatabaseVariant } from './databases';

/** Read-only access to the server's database, to check what was (not) written. */
export interface DatabaseProbe {
  rows(sqlText: string, parameters?: unknown[]): Promise<Record<string, unknown>[]>;
  count(table: string): Promise<number>;
  close(): Promise<void>;
}

export interface TestServer {
  server: ConfabServer;
  url: string;
  dataDir: string;
  /** The server's DATABASE_URL ('' for SQLite in dataDir), for tests that open the store themselves. */
  databaseUrl: string;
  probe: DatabaseProbe;
  /** A fresh SDK client with its own (in-memory) auth store. */
  client(): PocketBase;
  outboxMails(): string[];
  close(): Promise<void>;
}

function sqliteProbe(dataDir: string): DatabaseProbe {
  const connection = new BetterSqlite3(join(dataDir, 'confab.db'), { readonly: true });
  return {
    async rows(sqlText, parameters = []) {
      // Placeholders are written $1, $2 … for both databases.
      return connection.prepare(sqlText.replace(/\$\d+/g, '?')).all(...parameters) as Record<string, unknown>[];
    },
    async count(table) {
      const row = connection.prepare(`select count(*) as count from ${table}`).get() as { count: number };
      return Number(row.count);
    },
    async close() {
      connection.close();
    },
  };
}

async function postgresProbe(baseUrl: string, schema: string): Promise<DatabaseProbe> {
  const client = new pg.Client({ connectionString: baseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  return {
    async rows(sqlText, parameters = []) {
      return (await client.query(sqlText, parameters)).rows as Record<string, unknown>[];
    },
    async count(table) {
      const result = await client.query(`select count(*) as count from ${table}`);
      return Number((result.rows[0] as { count: string }).count);
    },
    async close() {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * A real confab-server on port 0 with a temp data dir (and its own PostgreSQL schema). A test
 * that brings its own `dataDir` (e.g. a small file system) keeps it: close leaves it in place.
 */
export async function startTestServer(variant: DatabaseVariant, options: ServerOptions = {}): Promise<TestServer> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'confab-test-'));
  const schema = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const databaseUrl = variant.baseUrl === undefined ? '' : `${variant.baseUrl}?schema=${schema}`;
  // Suites register many accounts from 127.0.0.1 and make many agents; the sign-up and agent
  // limits have their own tests with the defaults.
  const server = await startServer({
    port: 0, host: '127.0.0.1', databaseUrl, smtpUrl: '', signupsPerIpPerHour: 10_000, agentsPerUser: 10_000, agentsPerUserPerHour: 10_000, inboundSmtp: 'off', ...options, dataDir,
  });
  const probe = variant.baseUrl === undefined ? sqliteProbe(dataDir) : await postgresProbe(variant.baseUrl, schema);
  const outboxDir = join(dataDir, 'outbox');
  return {
    server,
    url: server.url,
    dataDir,
    databaseUrl,
    probe,
    client() {
      const pb = new PocketBase(server.url);
      pb.autoCancellation(false);
      return pb;
    },
    outboxMails() {
      let names: string[];
      try {
        names = readdirSync(outboxDir).sort();
      } catch {
        return [];
      }
      return names.map((name) => readFileSync(join(outboxDir, name), 'utf8'));
    },
    async close() {
      await server.close();
      await probe.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
