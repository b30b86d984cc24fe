/**
 * The @data job queue (docs/SECURITY.md H11, H12, O7). It bounds how many jobs run at once on the
 * server, in one chat and for one person, and how many may wait; a job past that is told "busy".
 * Each job has one deadline, its time in the queue included, enforced by killing the job's
 * process (no cooperation needed from a runaway query). Each running job gets its own process
 * (tools/dataChild.ts) holding its DuckDB, working in its own folder under the data dir, where
 * DuckDB may spill a capped amount; process and folder are gone when the job ends.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makePrivateFolder } from '../../store/privateDataDir';
import type { FileStore } from '../../services/files/fileStore';
import { DataChild, DataChildGone, type ChildEnd, type OpenedFiles } from '../tools/dataChild';
import { defaultMaxDataFileBytes, isDataFile, type ChatDataFile, type QueryFailure, type QueryOptions, type QueryResult } from '../tools/duckdb';
import { defaultSheetLimits, type SheetLimits } from '../tools/sheetSize';

export interface DataJobLimits {
  /** Jobs running at once on this server, in one chat, for one person. */
  running: number;
  perChat: number;
  perUser: number;
  /** Jobs waiting for a slot on this server; a person and a chat may each have twice their running limit waiting. */
  waiting: number;
  /** The whole job, its time in the queue included. */
  deadlineMs: number;
}

export interface DataJobResources {
  /** DuckDB's memory_limit; the process's JavaScript heap (where spreadsheets are read) may use twice this. */
  memoryMb: number;
  /** What DuckDB may spill to the job's folder; 0: nothing spills. */
  spillMb: number;
  /** The folder the jobs' own folders are made in (under the data dir). */
  root: string;
  threads?: number;
  sheetLimits?: SheetLimits;
  /** Where files with a `key` (in a bucket) are fetched from, into the job's folder. */
  files?: Pick<FileStore, 'copyToFile'>;
  /** What one job may fetch from the bucket in all; files past it are skipped. Default 512 MB. */
  inputMb?: number;
}

/** The chat's files, loaded in the job's process, and queries over them. */
export interface OpenedData extends OpenedFiles {
  query(sql: string, options: QueryOptions): Promise<QueryResult | QueryFailure>;
}

export interface DataJob {
  /**
   * Loads the files. One that kills the process while loading is remembered and skipped, here
   * (the process is started again without it) and in every later job, with the reason.
   */
  open(files: ChatDataFile[]): Promise<OpenedData>;
}

export type DataJobOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'busy'; scope: 'user' | 'chat' | 'server'; running: number; waiting: number }
  | { kind: 'deadline'; waitedMs: number }
  | { kind: 'ended'; end: ChildEnd }
  | { kind: 'failed'; error: unknown };

export interface DataPoolStatus {
  running: number;
  queued: number;
  /** No free slot, or jobs waiting for one. */
  saturated: boolean;
}

interface Who {
  chatId: string;
  userId: string;
}

interface Entry {
  who: Who;
  enqueuedAt: number;
  startedAt?: number;
  state: 'waiting' | 'running' | 'done';
  timer: NodeJS.Timeout;
  child?: DataChild;
  folder?: string;
  work: (job: DataJob) => Promise<unknown>;
  settle: (outcome: DataJobOutcome<unknown>) => void;
}

/** Files remembered as having killed a job's process; the oldest are forgotten past this. */
const maxRemembered = 1_000;

export class DataJobs {
  private readonly waiting: Entry[] = [];
  private readonly running = new Set<Entry>();
  private readonly killers = new Map<string, string>();
  private readonly cleanups = new Set<Promise<void>>();
  private closed = false;

  constructor(
    readonly limits: DataJobLimits,
    readonly resources: DataJobResources,
  ) {
    // Private to the server's account, as the whole data dir is (docs/SECURITY.md A14).
    makePrivateFolder(resources.root);
    // Folders of jobs that outlived a crash of the server itself.
    const staleBefore = Date.now() - Math.max(2 * limits.deadlineMs, 60 * 60 * 1000);
    for (const name of readdirSync(resources.root)) {
      const folder = join(resources.root, name);
      try {
        if (statSync(folder).mtimeMs < staleBefore) rmSync(folder, { recursive: true, force: true });
      } catch {
        // Removed meanwhile.
      }
    }
  }

  status(): DataPoolStatus {
    return { running: this.running.size, queued: this.waiting.length, saturated: this.running.size >= this.limits.running || this.waiting.length > 0 };
  }

  /**
   * Runs `work` as a job of `who` once a slot is free (told through `onWaiting` when it must wait),
   * within the deadline. Resolves with its value, or with why it did not finish: busy, the
   * deadline, or its process ending by itself. Output `work` makes after that is the caller's to drop.
   */
  run<T>(who: Who, work: (job: DataJob) => Promise<T>, onWaiting?: () => void): Promise<DataJobOutcome<T>> {
    if (this.closed) return Promise.resolve({ kind: 'busy', scope: 'server', running: this.running.size, waiting: this.waiting.length });
    const busy = this.canStart(who) ? undefined : this.busyScope(who);
    if (busy !== undefined) return Promise.resolve(busy);
    return new Promise((resolve) => {
      const entry: Entry = {
        who,
        enqueuedAt: Date.now(),
        state: 'waiting',
        timer: setTimeout(() => this.expire(entry), this.limits.deadlineMs),
        work: work as (job: DataJob) => Promise<unknown>,
        settle: resolve as (outcome: DataJobOutcome<unknown>) => void,
      };
      this.waiting.push(entry);
      this.pump();
      if (entry.state === 'waiting') onWaiting?.();
    });
  }

  /** Kills every job and forgets the queue; resolves once their folders are removed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of [...this.waiting, ...this.running]) this.finish(entry, { kind: 'ended', end: { kind: 'killed' } });
    await Promise.all([...this.cleanups]);
  }

  private count(entries: Iterable<Entry>, who: Partial<Who>): number {
    let count = 0;
    for (const entry of entries) if ((who.chatId === undefined || entry.who.chatId === who.chatId) && (who.userId === undefined || entry.who.userId === who.userId)) count += 1;
    return count;
  }

  private canStart(who: Who): boolean {
    return (
      this.running.size < this.limits.running &&
      this.count(this.running, { userId: who.userId }) < this.limits.perUser &&
      this.count(this.running, { chatId: who.chatId }) < this.limits.perChat
    );
  }

  /** Why a job that cannot start now may not wait either, or undefined when it may. */
  private busyScope(who: Who): DataJobOutcome<never> | undefined {
    const scopes: [Partial<Who>, number, 'user' | 'chat' | 'server'][] = [
      [{ userId: who.userId }, 2 * this.limits.perUser, 'user'],
      [{ chatId: who.chatId }, 2 * this.limits.perChat, 'chat'],
      [{}, this.limits.waiting, 'server'],
    ];
    for (const [filter, allowed, scope] of scopes) {
      const waiting = this.count(this.waiting, filter);
      if (waiting >= allowed) return { kind: 'busy', scope, running: this.count(this.running, filter), waiting };
    }
    return undefined;
  }

  /** Starts waiting jobs, oldest first, as far as the slots allow. */
  private pump(): void {
    for (const entry of [...this.waiting]) {
      if (!this.canStart(entry.who)) continue;
      this.waiting.splice(this.waiting.indexOf(entry), 1);
      this.start(entry);
    }
  }

  private start(entry: Entry): void {
    entry.state = 'running';
    entry.startedAt = Date.now();
    this.running.add(entry);
    const folder = join(this.resources.root, `${entry.startedAt.toString(36)}-${randomBytes(6).toString('hex')}`);
    try {
      makePrivateFolder(folder);
    } catch (error) {
      // A full or read-only disk fails this job, not the server (this may run from a timer).
      this.finish(entry, { kind: 'failed', error });
      return;
    }
    entry.folder = folder;
    const job: DataJob = { open: (files) => this.open(entry, files) };
    entry.work(job).then(
      (value) => this.finish(entry, { kind: 'done', value }),
      (error: unknown) => this.finish(entry, error instanceof DataChildGone ? { kind: 'ended', end: error.end } : { kind: 'failed', error }),
    );
  }

  private spawn(entry: Entry): DataChild {
    const child = new DataChild({ heapMb: 2 * this.resources.memoryMb, cwd: entry.folder! });
    entry.child = child;
    if (entry.state === 'done') void child.kill();
    return child;
  }

  private async open(entry: Entry, files: ChatDataFile[]): Promise<OpenedData> {
    const { memoryMb, spillMb, threads } = this.resources;
    const options = {
      memoryLimit: `${memoryMb}MB`,
      threads: threads ?? 2,
      spill: spillMb > 0 ? { directory: entry.folder!, maxBytes: spillMb * 1024 * 1024 } : undefined,
      sheetLimits: this.resources.sheetLimits ?? defaultSheetLimits,
    };
    const identity = (file: ChatDataFile) => file.key ?? file.path;
    const wanted = files.filter((file) => !this.killers.has(identity(file)));
    const fetched = await this.fetchInputs(entry, wanted);
    // The process names the file it was loading by its path here; killers remember the stored file.
    const storedPath = new Map(fetched.files.map((file, index) => [file.path, identity(wanted[index]!)]));
    for (let attempt = 0; ; attempt += 1) {
      const child = entry.child ?? this.spawn(entry);
      const remembered = files.filter((file) => this.killers.has(identity(file))).map((file) => ({ file: file.originalName, reason: this.killers.get(identity(file))! }));
      try {
        const opened = await child.open(
          fetched.files.filter((file, index) => !this.killers.has(identity(wanted[index]!)) && file.path !== ''),
          options,
        );
        // From here a death of the process (a query's memory, a crash) ends the job at once,
        // whatever its work is waiting for (the model, say).
        void child.ended.then((end) => {
          if (end.kind !== 'killed' && entry.child === child) this.finish(entry, { kind: 'ended', end });
        });
        return { ...opened, skipped: [...opened.skipped, ...fetched.skipped, ...remembered], query: (sql, queryOptions) => child.query(sql, queryOptions) };
      } catch (error) {
        const end = error instanceof DataChildGone ? error.end : undefined;
        const loading = end !== undefined && end.kind !== 'killed' ? end.loading : undefined;
        if (entry.state === 'done' || loading === undefined || attempt >= 2) throw error;
        this.remember(storedPath.get(loading) ?? loading, end?.kind === 'memory' ? `it needs more memory than one @data job has (${memoryMb} MB); save a smaller sheet, or a CSV` : `it stopped @data's worker (${end?.kind === 'crashed' ? end.detail : 'unknown'})`);
        entry.child = undefined;
      }
    }
  }

  /**
   * Local copies, in the job's folder, of the files that are in a bucket (DuckDB reads only local
   * files: its httpfs extension is not on every machine). Only what the job could load is
   * fetched: data files within the size DuckDB loads, within the job's input allowance; the rest
   * keep an empty path and are skipped with the reason. Files already on disk are read in place.
   */
  private async fetchInputs(entry: Entry, files: ChatDataFile[]): Promise<{ files: ChatDataFile[]; skipped: { file: string; reason: string }[] }> {
    const skipped: { file: string; reason: string }[] = [];
    let allowance = (this.resources.inputMb ?? 512) * 1024 * 1024;
    const local: ChatDataFile[] = [];
    for (const [index, file] of files.entries()) {
      if (entry.state === 'done') break;
      if (file.key === undefined) {
        local.push(file);
        continue;
      }
      // Not fetched: DuckDB skips (and names) what it would not load anyway, never reading the path.
      if (!isDataFile(file.originalName) || file.size > defaultMaxDataFileBytes) {
        local.push({ originalName: file.originalName, path: `${entry.folder!}/not-fetched-${index}`, size: file.size });
        continue;
      }
      if (file.size > allowance) {
        skipped.push({ file: file.originalName, reason: `over this job's ${this.resources.inputMb ?? 512} MB of inputs` });
        local.push({ originalName: file.originalName, path: '', size: file.size });
        continue;
      }
      const extension = /\.[A-Za-z0-9]+$/.exec(file.originalName)?.[0]?.toLowerCase() ?? '';
      const path = join(entry.folder!, `input-${index}${extension}`);
      const found = this.resources.files === undefined ? false : await this.resources.files.copyToFile(file.key, path);
      if (!found) {
        skipped.push({ file: file.originalName, reason: 'its bytes are missing from file storage' });
        local.push({ originalName: file.originalName, path: '', size: file.size });
        continue;
      }
      allowance -= file.size;
      local.push({ originalName: file.originalName, path, size: file.size });
    }
    return { files: local, skipped };
  }

  private remember(path: string, reason: string): void {
    this.killers.delete(path);
    this.killers.set(path, reason);
    if (this.killers.size > maxRemembered) this.killers.delete(this.killers.keys().next().value!);
  }

  private expire(entry: Entry): void {
    this.finish(entry, { kind: 'deadline', waitedMs: (entry.startedAt ?? Date.now()) - entry.enqueuedAt });
  }

  private finish(entry: Entry, outcome: DataJobOutcome<unknown>): void {
    if (entry.state === 'done') return;
    const wasRunning = entry.state === 'running';
    entry.state = 'done';
    clearTimeout(entry.timer);
    const index = this.waiting.indexOf(entry);
    if (index >= 0) this.waiting.splice(index, 1);
    this.running.delete(entry);
    if (wasRunning) this.cleanUp(entry);
    entry.settle(outcome);
    if (!this.closed) this.pump();
  }

  /** Kills the job's process (whatever it is doing) and removes its folder once it is gone. */
  private cleanUp(entry: Entry): void {
    const cleanup = (async () => {
      await entry.child?.kill();
      if (entry.folder !== undefined) await rm(entry.folder, { recursive: true, force: true }).catch(() => undefined);
    })();
    this.cleanups.add(cleanup);
    void cleanup.finally(() => this.cleanups.delete(cleanup));
  }
}
