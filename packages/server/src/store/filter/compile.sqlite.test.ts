import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { runCompileSuite } from './compile.cases';
import { openSqlite, type FixtureDatabase } from './fixture';

let db: Kysely<FixtureDatabase>;
beforeAll(async () => {
  db = await openSqlite();
});
afterAll(async () => {
  await db.destroy();
});

runCompileSuite('SQLite', () => db);
