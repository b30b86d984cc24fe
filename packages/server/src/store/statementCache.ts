import type { Database as BetterSqlite3Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * The connection Kysely's SQLite driver is given, with its statements kept: the driver prepares
 * every query anew, and preparing cost more than running on the send path. A statement is kept
 * per SQL text, the least recently used dropped past `size`. Sharing one is safe: the driver runs
 * one query at a time on the one connection (a stream holds it until the stream ends).
 */
export function withStatementCache(connection: BetterSqlite3Database, size = 500): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement !== undefined) {
        // Map keeps insertion order: moved to the end, it is the last to go.
        statements.delete(sql);
      } else {
        statement = connection.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
    close: () => connection.close(),
  };
}
