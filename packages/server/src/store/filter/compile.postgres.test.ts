import { afterAll, describe } from 'vitest';
import { runCompileSuite } from './compile.cases';
import { openPostgres } from './fixture';

// Skipped when no PostgreSQL is reachable, except in CI, where openPostgres throws instead.
const postgres = await openPostgres();
afterAll(async () => {
  await postgres?.close();
});

describe.skipIf(postgres === null)('PostgreSQL', () => {
  runCompileSuite('PostgreSQL', () => postgres!.db);
});
