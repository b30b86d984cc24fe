import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '../src/index';
import { databaseVariants } from './support/databases';

/**
 * An upgrade rolled out to every instance at once (docs/OPERATIONS.md, Upgrades): three instances
 * of a new version start together on one PostgreSQL schema that none has migrated yet. Kysely's
 * migrator takes a lock for the run, so each migration runs exactly once, the others wait for it
 * and find nothing left to do, and every instance starts.
 */
const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');

describe.runIf(postgres !== undefined)('migrations under concurrency', () => {
  it('three instances starting together on a fresh schema migrate it once and all serve', async () => {
    const baseUrl = postgres!.baseUrl!;
    const schema = `test_migrations_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dataDirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'confab-migrate-together-')));
    const started: ConfabServer[] = [];
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const results = await Promise.allSettled(
        dataDirs.map((dataDir) =>
          startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: `${baseUrl}?schema=${schema}`, smtpUrl: '', inboundSmtp: 'off', secret: `migrations-${schema}` }),
        ),
      );
      for (const result of results) if (result.status === 'fulfilled') started.push(result.value);
      for (const result of results) if (result.status === 'rejected') console.log(String(result.reason), String((result.reason as Error).cause));
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

      const applied = await admin.query<{ name: string; runs: string }>(`select name, count(*) as runs from "${schema}".kysely_migration group by name order by name`);
      expect(applied.rows.length).toBeGreaterThan(15);
      expect(applied.rows.filter((row) => Number(row.runs) !== 1)).toEqual([]);
      for (const server of started) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      for (const server of started) await server.close();
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(postgres !== undefined)('migrations while other schemas come and go', () => {
  it('a schema dropped by someone else during the migrator’s catalog read does not fail the start', async () => {
    const baseUrl = postgres!.baseUrl!;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    // Another tenant of the server (other test runs here) creating and dropping schemas with tables.
    let churning = true;
    const churner = (async () => {
      for (let round = 0; churning; round += 1) {
        const other = `test_churn_${process.pid}_${round}`;
        await admin.query(`create schema "${other}"; create table "${other}".t (id serial primary key, a text, b text, c text)`);
        await admin.query(`drop schema "${other}" cascade`);
      }
    })();
    const schemas: string[] = [];
    try {
      for (let run = 0; run < 6; run += 1) {
        const schema = `test_migrations_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
        schemas.push(schema);
        const dataDir = mkdtempSync(join(tmpdir(), 'confab-migrate-churn-'));
        try {
          const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl: `${baseUrl}?schema=${schema}`, smtpUrl: '', inboundSmtp: 'off', secret: `churn-${schema}` });
          await server.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      churning = false;
      await churner;
      for (const schema of schemas) await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    }
  }, 120_000);
});
