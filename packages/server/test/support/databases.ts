import pg from 'pg';

/** PostgreSQL used by the server tests; CI starts it at this address. */
export const postgresUrl = process.env['CONFAB_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface DatabaseVariant {
  name: 'sqlite' | 'postgres';
  /** Undefined for SQLite. */
  baseUrl: string | undefined;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Every suite runs on SQLite and on PostgreSQL. Without a reachable PostgreSQL the variant is
 * skipped on a developer machine, but kept (and so failing) in CI, where it must exist.
 */
export async function databaseVariants(): Promise<DatabaseVariant[]> {
  const variants: DatabaseVariant[] = [{ name: 'sqlite', baseUrl: undefined }];
  if (process.env['CI'] !== undefined || (await postgresReachable())) {
    variants.push({ name: 'postgres', baseUrl: postgresUrl });
  } else {
    console.warn('PostgreSQL is not reachable: skipping the postgres variant (set CI to make this fail)');
  }
  return variants;
}
