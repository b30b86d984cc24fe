import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { initialMigration } from './001_initial';

/** Migrations live in code (bundled by tsup), so no folder has to ship beside dist/. */
const migrations: Record<string, Migration> = {
  '001_initial': initialMigration,
};

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Brings the schema to the latest version; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
}
