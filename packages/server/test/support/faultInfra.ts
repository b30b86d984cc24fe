/**
 * What the fault tests break on purpose, each private to one test and on 127.0.0.1: a Redis and a
 * PostgreSQL cluster of their own (the shared ones are never stopped), a round-robin TCP proxy in
 * front of server instances, and free ports. Every piece is stopped by its `dispose`, and child
 * processes are killed on the test worker's exit too.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Spawns a child that is SIGKILLed if this process exits first. */
export function trackedSpawn(...args: Parameters<typeof spawn>): ChildProcess {
  const child = spawn(...args);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on now (the kernel's pick, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** Polls `probe` until it is true; false after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

function onPath(binary: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
}

/** Like the shared services: skipped on a developer machine without the binaries, required in CI. */
export function binariesAvailable(...binaries: string[]): boolean {
  const missing = binaries.filter((binary) => !onPath(binary));
  if (missing.length === 0) return true;
  if (process.env['CI'] !== undefined) throw new Error(`fault tests need ${missing.join(', ')} on PATH`);
  console.warn(`${missing.join(', ')} not on PATH: skipping this fault test (set CI to make this fail)`);
  return false;
}

export interface PrivateRedis {
  url: string;
  /** SIGKILLs it: no goodbye to its clients, as a crash or a lost host. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing on disk). */
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** A `redis-server` of this test's own on a free port, nothing saved to disk. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = trackedSpawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const up = await until(() => spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().trim() === 'PONG', 10_000, 100);
    if (!up) throw new Error(`redis-server did not start on ${port}`);
  };
  const kill = async () => {
    if (child === undefined) return;
    child.kill('SIGKILL');
    await exitOf(child);
    child = undefined;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start, dispose: kill };
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** `pg_ctl stop` with the given mode: fast ends sessions cleanly, immediate like a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A PostgreSQL cluster of this test's own (`initdb`, `pg_ctl`) on a free port, trust auth on
 * 127.0.0.1 only. initdb refuses to run as root, so as root the cluster belongs to `postgres`.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'confab-pg-'));
  const dataDir = join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const [uid, gid] = execFileSync('id', ['-u', 'postgres']).toString().trim().split(/\s+/).concat(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(directory, Number(uid), Number(gid));
  }
  const run = (command: string, args: string[]) => {
    const [file, fileArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    const result = spawnSync(file, fileArgs, { cwd: directory, encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions', '-E', 'UTF8']);
  // No Unix socket (nothing of ours under /var/run), fsync off: a test cluster, thrown away after.
  const serverOptions = `-p ${port} -h 127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=60`;
  const start = async () => run('pg_ctl', ['-D', dataDir, '-l', join(directory, 'log'), '-o', serverOptions, '-w', '-t', '30', 'start']);
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop,
    start,
    async dispose() {
      try {
        await stop('immediate');
      } catch {
        // Already stopped.
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Drops a test schema on a PostgreSQL that is still up; never fails a test's clean-up. */
export async function dropSchema(baseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
  } catch {
    // The server is gone with the test (a private cluster): nothing to drop.
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Proxy {
  port: number;
  url: string;
  /** Connections made through it so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A load balancer in a few lines: each new TCP connection goes to the next backend in turn, and to
 * the one after when that one refuses (an instance that is down). A connection lives and dies with
 * its backend connection, as behind a layer-4 balancer.
 */
export async function startRoundRobinProxy(backendPorts: readonly number[]): Promise<Proxy> {
  let next = 0;
  let made = 0;
  const open = new Set<Socket>();
  const dial = (client: Socket, triesLeft: number) => {
    const port = backendPorts[next % backendPorts.length] as number;
    next += 1;
    let connected = false;
    const backend = connect({ port, host: '127.0.0.1' });
    open.add(backend);
    backend.once('connect', () => {
      connected = true;
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
      client.once('close', () => backend.destroy());
    });
    backend.on('error', () => undefined);
    backend.once('close', () => {
      open.delete(backend);
      if (connected || triesLeft <= 1 || client.destroyed) client.destroy();
      else dial(client, triesLeft - 1);
    });
  };
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    made += 1;
    open.add(client);
    client.once('close', () => open.delete(client));
    client.on('error', () => undefined);
    dial(client, backendPorts.length * 3);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no proxy port');
  return {
    port: address.port,
    url: `http://127.0.0.1:${address.port}`,
    connections: () => made,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
