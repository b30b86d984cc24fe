/**
 * The server from source (tsx, as `pnpm dev` runs it) in a child process of its own, for tests
 * where the server itself might die or where its latency must not share the test's event loop:
 * a crash shows as a dead child, not a dead test worker. Configured through the environment, as
 * an operator would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { untilListening, workspaceRoot } from './builtServer';
import type { DatabaseVariant } from './databases';

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const sourceBin = join(workspaceRoot, 'packages/server/src/bin.ts');

/** What a test's server from source runs with unless told otherwise: no mail out or in, quiet JSON logs, sign-ups unlimited. */
export const sourceServerDefaults = {
  SMTP_URL: '',
  CONFAB_INBOUND_SMTP: 'off',
  CONFAB_LOG_LEVEL: 'warn',
  CONFAB_LOG_FORMAT: 'json',
  CONFAB_SIGNUPS_PER_IP_PER_HOUR: '10000',
} as const;

export interface SourceServer {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** The process's working directory (a fresh empty folder). */
  cwd: string;
  output(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  dispose(): Promise<void>;
}

/** Starts `src/bin.ts` on port 0, a fresh data dir and working directory, and the variant's database. */
export async function startSourceServer(variant: DatabaseVariant, environment: NodeJS.ProcessEnv = {}, heapMb = 1024): Promise<SourceServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-source-'));
  const cwd = mkdtempSync(join(tmpdir(), 'confab-source-cwd-'));
  const schema = `test_src_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const databaseUrl = variant.baseUrl === undefined ? '' : `${variant.baseUrl}?schema=${schema}`;
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, '--conditions=@confab/source', '--import', tsxLoader, sourceBin, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--no-web'],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: '',
        ...sourceServerDefaults,
        ...environment,
      },
    },
  );
  const { url, output, exited } = await untilListening(child, 'confab-server (source)');
  return {
    child,
    url,
    dataDir,
    cwd,
    output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
        if (!stopped) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
      if (variant.baseUrl !== undefined) {
        const client = new pg.Client({ connectionString: variant.baseUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    },
  };
}
