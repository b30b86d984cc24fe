/**
 * Server instances from source, each a child process on a fixed port (so a proxy in front finds it
 * again after a restart) that a fault test may SIGKILL and start again on the same data.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { untilListening, workspaceRoot } from './builtServer';
import { exitOf, freePort, trackedSpawn } from './faultInfra';
import { sourceServerDefaults } from './sourceServer';

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const sourceBin = join(workspaceRoot, 'packages/server/src/bin.ts');

export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  /** True while its current process runs. */
  alive(): boolean;
  /** Everything the current process printed. */
  output(): string;
  /** kill -9: no drain, no goodbye. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data dir; resolves once it listens. */
  start(): Promise<void>;
  /** Kills it if it runs and removes its data dir. */
  dispose(): Promise<void>;
}

/**
 * One instance of a deployment configured through `environment` (DATABASE_URL, REDIS_URL,
 * CONFAB_SECRET…), as an operator would; started before this resolves.
 */
export async function startInstance(name: string, environment: NodeJS.ProcessEnv): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `confab-${name}-`));
  let child: ChildProcess | undefined;
  let output = () => '';
  let disposed = false;
  const start = async () => {
    // A test that timed out may still be restarting it while its clean-up runs.
    if (disposed) throw new Error(`instance ${name} was disposed`);
    child = trackedSpawn(
      process.execPath,
      ['--conditions=@confab/source', '--import', tsxLoader, sourceBin, '--port', String(port), '--host', '127.0.0.1', '--data-dir', dataDir, '--no-web'],
      {
        cwd: dataDir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...sourceServerDefaults,
          ...environment,
        },
      },
    );
    const listening = await untilListening(child, `instance ${name}`);
    output = listening.output;
  };
  const kill = async () => {
    if (child === undefined) return;
    child.kill('SIGKILL');
    await exitOf(child);
  };
  await start();
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    output: () => output(),
    kill,
    start,
    async dispose() {
      disposed = true;
      await kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
