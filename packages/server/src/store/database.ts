import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { migrateToLatest } from './migrations/index';
import { makePrivateFile } from './privateDataDir';
import { withStatementCache } from './statementCache';
import { startWalCheckpoints } from './walCheckpoints';

export type DialectName = 'sqlite' | 'postgres';

export interface ConfabDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The PostgreSQL schema the connection is pinned to, when one was given. */
  schema?: string;
  close(): Promise<void>;
}

interface PostgresTarget {
  connectionString: string;
  schema: string | undefined;
}

/**
 * Splits `?schema=name` (or `options=-c search_path=name`) out of a PostgreSQL URL, so tests can
 * isolate each run in a schema of its own.
 */
export function parsePostgresUrl(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  let schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const options = url.searchParams.get('options');
  const searchPath = options?.match(/search_path=([A-Za-z0-9_]+)/)?.[1];
  if (schema === undefined && searchPath !== undefined) schema = searchPath;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error('DATABASE_URL: the schema name must be a plain identifier');
  }
  return { connectionString: url.toString(), schema };
}

/** How long a request waits for a PostgreSQL connection before it is answered 503. */
export const postgresConnectTimeoutMs = 5_000;

async function openPostgres(databaseUrl: string): Promise<ConfabDatabase> {
  const target = parsePostgresUrl(databaseUrl);
  if (target.schema !== undefined) {
    const client = new pg.Client({ connectionString: target.connectionString });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${target.schema}"`).catch((error: unknown) => {
        // Instances starting together race on IF NOT EXISTS (PostgreSQL checks, then creates): the
        // loser's duplicate means the schema is there, which is all this asked for.
        if (!isUniqueViolation(error) && (error as { code?: unknown }).code !== '42P06') throw error;
      });
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: 10,
    // While PostgreSQL is away or restarting (docs/OPERATIONS.md, Fault matrix), a request waits at
    // most this long for a connection and then fails (503), instead of waiting with no end for a
    // pool whose connections all hang. Connections to a server that went away are found by TCP
    // keep-alive, and the pool opens new ones by itself once it is back.
    connectionTimeoutMillis: postgresConnectTimeoutMs,
    keepAlive: true,
    ...(target.schema === undefined ? {} : { options: `-c search_path="${target.schema}"` }),
  });
  // An idle connection dropped by the server must not crash the process; the pool reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', ...(target.schema === undefined ? {} : { schema: target.schema }), close: () => db.destroy() };
}

/**
 * better-sqlite3 is a native module, loaded only when SQLite is used: a server on PostgreSQL runs
 * on any Node version without it built for that version.
 */
async function openSqlite(dataDir: string, onWarning?: (problem: string) => void): Promise<ConfabDatabase> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const path = join(dataDir, 'confab.db');
  // Made 0600 before SQLite opens it: SQLite gives the -wal and -shm it creates the same mode.
  makePrivateFile(path);
  const connection = new BetterSqlite3(path);
  connection.pragma('journal_mode = WAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  connection.pragma('synchronous = NORMAL');
  const checkpoints = startWalCheckpoints(connection, path, onWarning === undefined ? {} : { onError: onWarning });
  const db = new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors({ database: withStatementCache(connection) }, () => connection.inTransaction) });
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await checkpoints.stop();
      await db.destroy();
    },
  };
}

/**
 * SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY,
 * SQLITE_NOMEM). Kysely's ROLLBACK after one then fails with "no transaction is active", and that
 * error replaces the one that matters: a full disk would answer as an unexplained 500 instead of
 * a 507 (docs/OPERATIONS.md, Disk full). So the rollback only runs while a transaction is open.
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly inTransaction: () => boolean,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    const inTransaction = this.inTransaction;
    return new (class extends SqliteDriver {
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (inTransaction()) await super.rollbackTransaction(connection);
      }
    })(this.settings);
  }
}

/** Opens the configured database and migrates it to the latest schema. */
export async function openDatabase(options: { databaseUrl: string | undefined; dataDir: string; onWarning?: (problem: string) => void }): Promise<ConfabDatabase> {
  const database =
    options.databaseUrl !== undefined && /^postgres(ql)?:/.test(options.databaseUrl)
      ? await openPostgres(options.databaseUrl)
      : await openSqlite(options.dataDir, options.onWarning);
  try {
    await migrateToLatest(database.db as Kysely<unknown>, database.schema);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
