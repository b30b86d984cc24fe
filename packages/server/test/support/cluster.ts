import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import PocketBase from 'pocketbase';
import { startServer, type ConfabServer, type ServerOptions } from '../../src/index';
import { registerUser, type RegisteredUser } from './fixtures';
import { redisUrl } from './redis';
import type { TestServer } from './testServer';

/** Two instances of one deployment, and how to take it down again. */
export interface Cluster {
  a: ConfabServer;
  b: ConfabServer;
  /** Closes both instances, drops the schema and removes both data dirs. */
  close(): Promise<void>;
}

/**
 * Two confab-server instances on one PostgreSQL (a fresh schema) and one Redis, as behind a load
 * balancer, each with its own data dir. `options` go to both: they share `secret` (a token or a
 * ciphertext from one is valid on the other). The shared Redis namespace derives from the secret
 * and Redis outlives a test run, so the secret gets this cluster's own suffix: counts (sign-ups per
 * address, mails per hour…) never carry over from an earlier run or another test file.
 */
export async function startCluster(postgresBaseUrl: string, options: ServerOptions & { secret: string }): Promise<Cluster> {
  const schema = `test_cluster_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs = [mkdtempSync(join(tmpdir(), 'confab-a-')), mkdtempSync(join(tmpdir(), 'confab-b-'))];
  const shared: ServerOptions = {
    port: 0, host: '127.0.0.1', databaseUrl: `${postgresBaseUrl}?schema=${schema}`, redisUrl, smtpUrl: '',
    ...options,
    secret: `${options.secret}-${schema}`,
  };
  const a = await startServer({ ...shared, dataDir: dataDirs[0] });
  const b = await startServer({ ...shared, dataDir: dataDirs[1] });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      const client = new pg.Client({ connectionString: postgresBaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new person signed up and in through one instance of a cluster. */
export function registerOn(server: Pick<ConfabServer, 'url'>, overrides?: Parameters<typeof registerUser>[1]): Promise<RegisteredUser> {
  return registerUser({ client: () => new PocketBase(server.url) } as unknown as TestServer, overrides);
}

/** The same person's session, talking to another instance (its token is valid on every one). */
export function signedInOn(server: Pick<ConfabServer, 'url'>, user: RegisteredUser): RegisteredUser {
  const pb = new PocketBase(server.url);
  pb.autoCancellation(false);
  pb.authStore.save(user.pb.authStore.token, user.pb.authStore.record);
  return { ...user, pb };
}
