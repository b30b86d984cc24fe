/**
 * Test fixture shared by the filter/sort suites: a small chat schema, its DDL and rows,
 * and helpers to open it in SQLite or (when reachable) PostgreSQL. Not part of the API.
 */
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { SchemaRegistry } from './types';

export interface FixtureDatabase {
  teams: { id: string; name: string | null };
  users: { id: string; username: string; name: string | null; email: string; verified: number; age: number | null; team: string | null; created: string; updated: string };
  chats: { id: string; title: string | null; owner: string | null; archived: number; created: string; updated: string };
  chat_participants: { chat: string; user: string };
  messages: { id: string; chat: string | null; author: string | null; content: string | null; views: number | null; reply_to: string | null; meta: string | null; created: string; updated: string };
}

const base = { id: { kind: 'text', column: 'id' }, created: { kind: 'date', column: 'created' }, updated: { kind: 'date', column: 'updated' } } as const;

export const registry: SchemaRegistry = {
  teams: { name: 'teams', table: 'teams', fields: { id: { kind: 'text', column: 'id' }, name: { kind: 'text', column: 'name' } } },
  users: {
    name: 'users',
    table: 'users',
    // `email` is deliberately absent: hidden fields must not be filterable.
    fields: {
      ...base,
      username: { kind: 'text', column: 'username' },
      name: { kind: 'text', column: 'name' },
      verified: { kind: 'bool', column: 'verified' },
      age: { kind: 'number', column: 'age' },
      team: { kind: 'relation', column: 'team', target: 'teams' },
    },
  },
  chats: {
    name: 'chats',
    table: 'chats',
    fields: {
      ...base,
      title: { kind: 'text', column: 'title' },
      owner: { kind: 'relation', column: 'owner', target: 'users' },
      archived: { kind: 'bool', column: 'archived' },
      participants: { kind: 'multiRelation', joinTable: 'chat_participants', ownerColumn: 'chat', valueColumn: 'user', target: 'users' },
    },
  },
  messages: {
    name: 'messages',
    table: 'messages',
    fields: {
      ...base,
      chat: { kind: 'relation', column: 'chat', target: 'chats' },
      author: { kind: 'relation', column: 'author', target: 'users' },
      content: { kind: 'text', column: 'content' },
      views: { kind: 'number', column: 'views' },
      reply_to: { kind: 'relation', column: 'reply_to', target: 'messages' },
      meta: { kind: 'json', column: 'meta' },
    },
  },
};

const ddl = [
  'CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT)',
  'CREATE TABLE users (id TEXT PRIMARY KEY, username TEXT NOT NULL, name TEXT, email TEXT NOT NULL, verified INTEGER NOT NULL, age INTEGER, team TEXT, created TEXT NOT NULL, updated TEXT NOT NULL)',
  'CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT, owner TEXT, archived INTEGER NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL)',
  'CREATE TABLE chat_participants (chat TEXT NOT NULL, "user" TEXT NOT NULL)',
  'CREATE TABLE messages (id TEXT PRIMARY KEY, chat TEXT, author TEXT, content TEXT, views INTEGER, reply_to TEXT, meta TEXT, created TEXT NOT NULL, updated TEXT NOT NULL)',
];

const stamp = (day: number): string => `2026-01-${String(day).padStart(2, '0')} 10:00:00.000Z`;

export const rows = {
  teams: [
    { id: 'team_red', name: 'Red' },
    { id: 'team_blue', name: 'Blue' },
  ],
  users: [
    { id: 'u_ann', username: 'ann', name: 'Ann Lee', email: 'ann@example.com', verified: 1, age: 31, team: 'team_red', created: stamp(1), updated: stamp(1) },
    { id: 'u_bob', username: 'bob', name: 'Bob_100%', email: 'bob@example.com', verified: 0, age: 25, team: 'team_blue', created: stamp(2), updated: stamp(2) },
    { id: 'u_cyd', username: 'cyd', name: null, email: 'cyd@example.com', verified: 1, age: null, team: null, created: stamp(3), updated: stamp(3) },
    { id: 'u_dee', username: 'dee', name: '', email: 'dee@example.com', verified: 0, age: 40, team: 'team_red', created: stamp(4), updated: stamp(4) },
  ],
  chats: [
    { id: 'c_general', title: 'General', owner: 'u_ann', archived: 0, created: stamp(5), updated: stamp(5) },
    { id: 'c_random', title: 'Random "quotes" \\ back', owner: 'u_bob', archived: 1, created: stamp(6), updated: stamp(6) },
    { id: 'c_empty', title: null, owner: null, archived: 0, created: stamp(7), updated: stamp(7) },
    { id: 'c_red', title: 'Red team', owner: 'u_dee', archived: 0, created: stamp(8), updated: stamp(8) },
  ],
  chat_participants: [
    { chat: 'c_general', user: 'u_ann' },
    { chat: 'c_general', user: 'u_bob' },
    { chat: 'c_general', user: 'u_cyd' },
    { chat: 'c_random', user: 'u_bob' },
    { chat: 'c_red', user: 'u_ann' },
    { chat: 'c_red', user: 'u_dee' },
  ],
  messages: [
    { id: 'm_1', chat: 'c_general', author: 'u_ann', content: 'Hello world', views: 10, reply_to: null, meta: '{"pinned":true}', created: stamp(10), updated: stamp(10) },
    { id: 'm_2', chat: 'c_general', author: 'u_bob', content: '50% off_sale', views: 0, reply_to: 'm_1', meta: null, created: stamp(11), updated: stamp(11) },
    { id: 'm_3', chat: 'c_random', author: 'u_bob', content: 'line1\nline2 "q" \\ end', views: 3, reply_to: null, meta: null, created: stamp(12), updated: stamp(12) },
    { id: 'm_4', chat: 'c_red', author: 'u_dee', content: '', views: null, reply_to: 'm_2', meta: null, created: stamp(13), updated: stamp(13) },
    { id: 'm_5', chat: 'c_red', author: null, content: null, views: 7, reply_to: null, meta: null, created: stamp(14), updated: stamp(14) },
    { id: 'm_6', chat: 'c_general', author: 'u_cyd', content: 'Ünïcödé 😀 日本', views: 2, reply_to: 'm_5', meta: null, created: stamp(15), updated: stamp(15) },
  ],
} satisfies { [Table in keyof FixtureDatabase]: FixtureDatabase[Table][] };

export async function seed(db: Kysely<FixtureDatabase>): Promise<void> {
  for (const statement of ddl) await sql.raw(statement).execute(db);
  for (const table of Object.keys(rows) as (keyof FixtureDatabase)[]) {
    await db.insertInto(table).values(rows[table]).execute();
  }
}

export async function openSqlite(): Promise<Kysely<FixtureDatabase>> {
  const db = new Kysely<FixtureDatabase>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await seed(db);
  return db;
}

export const postgresUrl = process.env.CONFAB_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A seeded PostgreSQL database in a fresh schema, or null when the server is unreachable
 * (an error instead when CI is set: CI must exercise both databases).
 */
export async function openPostgres(): Promise<{ db: Kysely<FixtureDatabase>; close: () => Promise<void> } | null> {
  const schema = `filter_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1, connectionTimeoutMillis: 2000 });
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
  } catch (error) {
    await admin.end();
    if (process.env.CI) throw error;
    return null;
  }
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 4, options: `-c search_path=${schema}` });
  const db = new Kysely<FixtureDatabase>({ dialect: new PostgresDialect({ pool }) });
  await seed(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}
