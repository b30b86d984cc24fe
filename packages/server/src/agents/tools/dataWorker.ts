/**
 * The process one @data job runs in (docs/SECURITY.md H10–H12). The server forks it for each job
 * (dataChild.ts) with a capped heap and a working directory of its own; it holds the job's
 * in-memory DuckDB and answers `open` and `query` over IPC. Whatever a file or a query does to
 * memory, threads or time ends with this process: the server's heap and thread pool (where sign-in
 * hashes passwords and files are served) never carry it.
 */
import { setPriority } from 'node:os';
import { ChatDatabase, type ChatDatabaseOptions, type ChatDataFile, type QueryOptions } from './duckdb';

export type WorkerRequest =
  | { id: number; op: 'open'; files: ChatDataFile[]; options: Omit<ChatDatabaseOptions, 'onLoading'> }
  | { id: number; op: 'query'; sql: string; options: QueryOptions };

export type WorkerMessage =
  | { type: 'ready' }
  /** Sent before each file is loaded, so a death while loading names the file. */
  | { type: 'loading'; path: string }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string };

function send(message: WorkerMessage): void {
  process.send?.(message);
}

// What DuckDB spills into the job's folder is private to the server's account (docs/SECURITY.md A14).
process.umask(0o077);

// Below the server: its threads (password hashing, file serving) win the CPU. Threads DuckDB and
// libuv start later inherit this.
try {
  setPriority(10);
} catch {
  // Not permitted here: the job runs at normal priority.
}

let database: ChatDatabase | undefined;

async function handle(request: WorkerRequest): Promise<unknown> {
  if (request.op === 'open') {
    database?.close();
    database = await ChatDatabase.open(request.files, { ...request.options, onLoading: (file) => send({ type: 'loading', path: file.path }) });
    return { tables: database.tables, skipped: database.skipped };
  }
  if (database === undefined) throw new Error('no files are open');
  return database.query(request.sql, request.options);
}

process.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (value) => send({ type: 'answer', id: request.id, value }),
    (error: unknown) => send({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }),
  );
});
// The server went away (or ended the job): so does the job.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
