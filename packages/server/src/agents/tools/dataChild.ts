/**
 * One @data job's process, seen from the server (docs/SECURITY.md H10, H11): forks dataWorker with
 * a capped heap, speaks to it over IPC, kills it when told (the job's deadline), and says why it
 * ended when it dies by itself, and which file it was loading then.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChatDatabaseOptions, ChatDataFile, QueryFailure, QueryOptions, QueryResult, TableInfo } from './duckdb';
import type { WorkerMessage, WorkerRequest } from './dataWorker';

const here = fileURLToPath(import.meta.url);
/** From source (tests, `pnpm dev`) the worker is TypeScript, run through tsx as the server is. */
const fromSource = here.endsWith('.ts');
/** Beside this file in src/, or dist/dataWorker.js beside the bundle (an entry in tsup.config.ts). */
const workerPath = join(dirname(here), fromSource ? 'dataWorker.ts' : 'dataWorker.js');

function loaderArguments(): string[] {
  return fromSource ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
}

/** How a job's process ended: killed by the server, out of memory, or otherwise. */
export type ChildEnd = { kind: 'killed' } | { kind: 'memory'; loading?: string } | { kind: 'crashed'; detail: string; loading?: string };

/** A request to a process that is gone. */
export class DataChildGone extends Error {
  constructor(readonly end: ChildEnd) {
    super(end.kind === 'killed' ? 'the job was stopped' : end.kind === 'memory' ? 'the job ran out of memory' : `the job's process stopped (${end.detail})`);
    this.name = 'DataChildGone';
  }
}

export interface OpenedFiles {
  tables: TableInfo[];
  skipped: { file: string; reason: string }[];
}

/** A request before it is numbered (Omit over each member of the union). */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

const outOfMemory = /heap out of memory|Reached heap limit|Allocation failed|std::bad_alloc|out of memory/i;

/** Only what Node needs: the job's process never sees the server's secrets or keys. */
function childEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'TZ', 'LANG', 'TMPDIR', 'NODE_ENV']) if (process.env[name] !== undefined) environment[name] = process.env[name];
  return environment;
}

export class DataChild {
  /** Resolves once the process has exited, with why. */
  readonly ended: Promise<ChildEnd>;
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private loading: string | undefined;
  private stderrTail = '';
  private killed = false;
  private end: ChildEnd | undefined;

  /** Forks the worker with a `heapMb` heap in `cwd` (the job's own folder). */
  constructor(options: { heapMb: number; cwd: string }) {
    this.child = fork(workerPath, [], {
      cwd: options.cwd,
      execArgv: [...loaderArguments(), `--max-old-space-size=${options.heapMb}`],
      env: childEnvironment(),
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4096);
    });
    let markReady = () => {};
    this.ready = new Promise((resolve) => (markReady = resolve));
    this.child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') markReady();
      else if (message.type === 'loading') this.loading = message.path;
      else {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === 'answer') waiter?.resolve(message.value);
        else waiter?.reject(new Error(message.message));
      }
    });
    this.ended = new Promise((resolve) => {
      const finish = (end: ChildEnd) => {
        if (this.end !== undefined) return;
        this.end = end;
        for (const waiter of this.pending.values()) waiter.reject(new DataChildGone(end));
        this.pending.clear();
        markReady();
        resolve(end);
      };
      // 'close' comes after stderr is read to its end: an out-of-memory message is not missed.
      this.child.once('close', (code, signal) => finish(this.endOf(code, signal)));
      // `on`, not `once`: a second 'error' (a failed kill, say) must not go unheard and crash the server.
      this.child.on('error', (error) => finish(this.killed ? { kind: 'killed' } : { kind: 'crashed', detail: error.message, loading: this.loading }));
    });
  }

  private endOf(code: number | null, signal: NodeJS.Signals | null): ChildEnd {
    if (this.killed) return { kind: 'killed' };
    // V8 aborts with this on stderr; a SIGKILL we did not send is the kernel's out-of-memory killer.
    if (outOfMemory.test(this.stderrTail) || signal === 'SIGKILL') return { kind: 'memory', loading: this.loading };
    return { kind: 'crashed', detail: signal === null ? `exit code ${code}` : signal, loading: this.loading };
  }

  private async request<T>(request: Unnumbered<WorkerRequest>): Promise<T> {
    await this.ready;
    if (this.end !== undefined) throw new DataChildGone(this.end);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...request, id } as WorkerRequest, (error) => {
        if (error !== null && error !== undefined && this.pending.delete(id)) reject(this.end === undefined ? error : new DataChildGone(this.end));
      });
    });
  }

  /** Loads the files into the process's DuckDB (replacing what it held). */
  open(files: ChatDataFile[], options: Omit<ChatDatabaseOptions, 'onLoading'>): Promise<OpenedFiles> {
    this.loading = undefined;
    return this.request<OpenedFiles>({ op: 'open', files, options }).finally(() => {
      if (this.end === undefined) this.loading = undefined;
    });
  }

  query(sql: string, options: QueryOptions): Promise<QueryResult | QueryFailure> {
    return this.request({ op: 'query', sql, options });
  }

  /** Ends the process at once (SIGKILL): no cooperation is needed from whatever it is doing. */
  kill(): Promise<ChildEnd> {
    if (this.end === undefined) {
      this.killed = true;
      this.child.kill('SIGKILL');
    }
    return this.ended;
  }
}
