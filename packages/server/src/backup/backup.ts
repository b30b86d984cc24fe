import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { fileKey, parseBucket } from '../services/files/fileStore';
import { storedFiles } from '../services/files/migrateFiles';
import { filesRoot } from '../services/files/storage';
import { parsePostgresUrl } from '../store/database';
import { privateFolderMode } from '../store/privateDataDir';
import { copyPrivateFile, isPostgresUrl, isWithin, megabytes, newestSqliteMessage, packageVersion, pgDumpCommand, secretFileIn, secretReadsMessage, type Say } from './common';
import { databaseName, manifestFormat, manifestName, manifestVersion, postgresDumpName, secretName, sha256Of, writeManifest, type BackupManifest } from './manifest';

export interface BackupOptions {
  /** The server's data dir (`--data-dir`, CONFAB_DATA_DIR). */
  dataDir: string;
  /** The backup folder: new, or empty (on PostgreSQL it may already hold the operator's confab.pgdump). */
  target: string;
  /** DATABASE_URL: `postgres://…` for PostgreSQL, else the data dir's SQLite database. */
  databaseUrl: string | undefined;
  /** CONFAB_FILES_S3_BUCKET: files in a bucket are not copied. */
  filesS3Bucket: string | undefined;
  /** CONFAB_SECRET, when the server takes its secret from the environment rather than `<data dir>/secret`. */
  environmentSecret: string | undefined;
  say: Say;
  now?: () => Date;
}

type Counts = NonNullable<BackupManifest['counts']>;
type Schema = NonNullable<BackupManifest['schema']>;
type FilesPart = BackupManifest['files'];

/** What the database told about itself: counts, schema and the newest message body (to check the secret against). */
interface DatabaseFacts {
  counts: Counts;
  schema: Schema;
  sampleMessage: string | undefined;
}

/**
 * `confab-server backup <dir>`: a consistent copy of a running server's state.
 *
 * On SQLite the database is copied with SQLite's online backup API on a read-only connection of
 * its own, in one step, so it is one snapshot and the server keeps serving (WAL readers block no
 * writer). Files are copied after it, and only those the snapshot names: files are written once
 * and never changed, so every file row in the snapshot finds its bytes, unless the file was
 * deleted meanwhile, and then its row is dropped from the copy as the deletion would have.
 * The secret (the key of message content and stored provider keys) is copied too, and checked
 * against a stored message. The manifest is written last.
 *
 * On PostgreSQL the database is the operator's pg_dump (printed), the files and secret are copied
 * as on SQLite; with a bucket the files stay in the bucket (its versioning or replication).
 */
export async function backupDataDir(options: BackupOptions): Promise<BackupManifest> {
  const dataDir = resolve(options.dataDir);
  const target = resolve(options.target);
  const { say } = options;
  const createdAt = (options.now ?? (() => new Date()))().toISOString();
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) throw new Error(`there is no data dir at ${dataDir}: pass the server's --data-dir (or set CONFAB_DATA_DIR)`);
  if (isWithin(target, dataDir)) throw new Error(`the backup folder ${target} is inside the data dir ${dataDir}: back up to another folder, ideally another disk`);
  const postgres = isPostgresUrl(options.databaseUrl);
  if (!postgres && !existsSync(join(dataDir, databaseName))) {
    throw new Error(`${dataDir} holds no ${databaseName}: pass the server's --data-dir (or set CONFAB_DATA_DIR), or DATABASE_URL when it runs on PostgreSQL`);
  }
  const created = prepareTarget(target, postgres ? [postgresDumpName] : []);
  try {
    const secret = options.environmentSecret?.trim() || secretFileIn(dataDir);
    const secretKind = options.environmentSecret?.trim() ? 'environment' : 'data-dir';
    const bucket = options.filesS3Bucket?.trim() ? parseBucket(options.filesS3Bucket) : undefined;
    let database: BackupManifest['database'];
    let facts: DatabaseFacts | undefined;
    let files: FilesPart;
    let filesDeletedDuringBackup = 0;

    if (postgres) {
      const dumpPath = join(target, postgresDumpName);
      const dumped = existsSync(dumpPath) && statSync(dumpPath).size > 0;
      database = { kind: 'postgresql', dump: dumped ? postgresDumpName : null, dumpSha256: dumped ? await sha256Of(dumpPath) : null };
      say(dumped ? `The database is PostgreSQL: ${dumpPath} (your pg_dump) is kept in the backup.` : `The database is PostgreSQL: back it up with pg_dump, into this folder and BEFORE this command, so every file row in the dump has its file here:`);
      if (!dumped) {
        say(`  ${pgDumpCommand(options.databaseUrl as string, dumpPath)}`);
        say('  (pg_dump reads the password from PGPASSWORD or ~/.pgpass; this backup has no database until the dump is in it)');
      }
      facts = await postgresFacts(options.databaseUrl as string, say);
      checkSecret(secret, secretKind, facts?.sampleMessage, dataDir);
      if (bucket !== undefined) {
        files = bucketFiles(bucket, say);
      } else {
        files = await copyEveryStoredFile(dataDir, target);
      }
    } else {
      const copyPath = join(target, databaseName);
      await snapshotSqlite(join(dataDir, databaseName), copyPath);
      const { default: Sqlite } = await import('better-sqlite3');
      const copy = new Sqlite(copyPath);
      try {
        // One self-contained file: the snapshot carries the live database's WAL mode otherwise.
        copy.pragma('journal_mode = DELETE');
        copy.pragma('foreign_keys = ON');
        const integrity = copy.pragma('integrity_check', { simple: true });
        if (integrity !== 'ok') throw new Error(`the database snapshot fails SQLite's integrity check (${String(integrity)}): the live database may be damaged`);
        checkSecret(secret, secretKind, newestSqliteMessage(copy), dataDir);
        if (bucket !== undefined) {
          files = bucketFiles(bucket, say);
        } else {
          const copied = await copySnapshotFiles(copy, dataDir, target);
          files = { kind: 'data-dir', count: copied.count, bytes: copied.bytes };
          filesDeletedDuringBackup = copied.gone;
          if (copied.gone > 0) {
            say(`${copied.gone} file(s) named by the snapshot were gone from ${filesRoot(dataDir)} (deleted while the backup ran): left out of the backup, as the deletion does.`);
          }
        }
        facts = sqliteFacts(copy);
      } finally {
        copy.close();
      }
      database = { kind: 'sqlite', file: databaseName, bytes: statSync(copyPath).size, sha256: await sha256Of(copyPath) };
    }

    if (existsSync(join(dataDir, secretName))) await copyPrivateFile(join(dataDir, secretName), join(target, secretName));
    if (secretKind === 'environment') {
      say('The server takes its secret from CONFAB_SECRET: keep that value with this backup (it is not in it); without it the messages in it cannot be read.');
    } else if (secret === undefined) {
      say(`${dataDir} holds no secret file and CONFAB_SECRET is not set: if the server runs with CONFAB_SECRET, keep that value with this backup.`);
    }

    const manifest: BackupManifest = {
      format: manifestFormat,
      version: manifestVersion,
      createdAt,
      serverVersion: packageVersion(),
      database,
      schema: facts?.schema ?? null,
      counts: facts?.counts ?? null,
      files,
      secret: secretKind === 'environment' || secret === undefined ? 'environment' : 'data-dir',
      filesDeletedDuringBackup,
    };
    writeManifest(target, manifest);
    const what = [
      database.kind === 'sqlite' ? `the database (${describeFacts(facts)})` : `database facts (${describeFacts(facts)})`,
      files.kind === 'data-dir' ? `${files.count} file(s), ${megabytes(files.bytes)}` : `no files (they are in s3://${files.bucket}/${files.prefix})`,
      manifest.secret === 'data-dir' ? 'the secret' : 'no secret (CONFAB_SECRET)',
    ];
    say(`Backed up ${dataDir} to ${target}: ${what.join('; ')}.`);
    return manifest;
  } catch (error) {
    removeWritten(target, created);
    throw error;
  }
}

function describeFacts(facts: DatabaseFacts | undefined): string {
  if (facts === undefined) return 'counts unknown';
  return `${facts.counts.messages} messages, ${facts.counts.files} file rows, ${facts.counts.users} users, ${facts.counts.chats} chats, schema ${facts.schema.migration}`;
}

/** The backup folder: created (0700), or an existing folder holding nothing but `allowed` names. Answers whether it was created. */
function prepareTarget(target: string, allowed: readonly string[]): boolean {
  if (!existsSync(target)) {
    mkdirSync(target, { recursive: true, mode: privateFolderMode });
    return true;
  }
  if (!statSync(target).isDirectory()) throw new Error(`${target} is not a folder`);
  const present = readdirSync(target).filter((name) => !allowed.includes(name));
  if (present.length > 0) throw new Error(`${target} is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): back up into a new or empty folder`);
  return false;
}

/** After a failure: the folder goes if this run made it, else what this run wrote in it (never the operator's dump). */
function removeWritten(target: string, created: boolean): void {
  if (created) {
    rmSync(target, { recursive: true, force: true });
    return;
  }
  for (const name of [databaseName, `${databaseName}-journal`, `${databaseName}-wal`, `${databaseName}-shm`, 'files', secretName, manifestName, `${manifestName}.partial`]) {
    rmSync(join(target, name), { recursive: true, force: true });
  }
}

/**
 * SQLite's online backup of the live database into `copyPath`, from a read-only connection of its
 * own. All pages in one step: a step reads in one transaction, so the copy is one snapshot, and
 * a write by the server between steps (which restarts a paced backup) cannot starve it.
 */
async function snapshotSqlite(livePath: string, copyPath: string): Promise<void> {
  const { default: Sqlite } = await import('better-sqlite3');
  const live = new Sqlite(livePath, { readonly: true, fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(copyPath, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
}

function sqliteFacts(db: BetterSqlite3.Database): DatabaseFacts {
  const count = (table: string) => Number(db.prepare(`select count(*) from ${table}`).pluck().get());
  const migrations = db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  return {
    counts: { messages: count('messages'), files: count('files'), users: count('users'), chats: count('chats') },
    schema: { migration: migrations.at(-1) ?? '', migrations: migrations.length },
    sampleMessage: newestSqliteMessage(db),
  };
}

/** The same facts read from PostgreSQL; undefined (and a line saying why) when it cannot be reached. */
async function postgresFacts(databaseUrl: string, say: Say): Promise<DatabaseFacts | undefined> {
  const target = parsePostgresUrl(databaseUrl);
  const client = new pg.Client({
    connectionString: target.connectionString,
    connectionTimeoutMillis: 5000,
    ...(target.schema === undefined ? {} : { options: `-c search_path="${target.schema}"` }),
  });
  try {
    await client.connect();
    const count = async (table: string) => Number((await client.query<{ count: string }>(`select count(*) as count from ${table}`)).rows[0]?.count ?? 0);
    const migrations = (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map((row) => row.name);
    const sample = (await client.query<{ content_encrypted: string }>("select content_encrypted from messages where content_encrypted <> '' order by created desc limit 1")).rows[0];
    return {
      counts: { messages: await count('messages'), files: await count('files'), users: await count('users'), chats: await count('chats') },
      schema: { migration: migrations.at(-1) ?? '', migrations: migrations.length },
      sampleMessage: sample?.content_encrypted,
    };
  } catch (error) {
    // pg's messages name the host or the problem, never the password.
    say(`Could not read the database for the manifest's counts (${error instanceof Error ? error.message : String(error)}); they are left empty.`);
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A backup whose secret cannot read its messages is useless: stop before writing it. */
function checkSecret(secret: string | undefined, kind: 'environment' | 'data-dir', sampleMessage: string | undefined, dataDir: string): void {
  if (secret === undefined || sampleMessage === undefined) return;
  if (secretReadsMessage(secret, sampleMessage)) return;
  throw new Error(
    kind === 'environment'
      ? 'CONFAB_SECRET as given here does not decrypt the stored messages: run backup with the CONFAB_SECRET the server runs with'
      : `${join(dataDir, secretName)} does not decrypt the stored messages: the server must take its secret from CONFAB_SECRET; run backup with that same CONFAB_SECRET set`,
  );
}

function bucketFiles(bucket: { bucket: string; prefix: string }, say: Say): FilesPart {
  say(`Files are in the bucket s3://${bucket.bucket}/${bucket.prefix} (CONFAB_FILES_S3_BUCKET) and are not copied: keep them with the storage's own versioning or replication (e.g. S3 Versioning with a lifecycle rule, or bucket replication to another region or account).`);
  return { kind: 'bucket', bucket: bucket.bucket, prefix: bucket.prefix };
}

/**
 * The bytes of every file row of the snapshot, copied into `<target>/files/` under the same keys.
 * A row whose bytes are gone was deleted after the snapshot (the server deletes the bytes, then
 * the row): its row leaves the copy too (its search text cascades) and its file message card says
 * deleted, as the server's own deletion does. Nothing else under files/ is copied: uploads newer
 * than the snapshot, partial uploads.
 */
async function copySnapshotFiles(copy: BetterSqlite3.Database, dataDir: string, target: string): Promise<{ count: number; bytes: number; gone: number }> {
  const rows = copy.prepare('select id, chat, file from files order by id').all() as { id: string; chat: string; file: string }[];
  const gone: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    let key: string;
    try {
      key = fileKey(row.chat, row.id, row.file);
    } catch {
      gone.push(row.id);
      continue;
    }
    try {
      await copyPrivateFile(join(filesRoot(dataDir), key), join(target, 'files', key));
      bytes += statSync(join(target, 'files', key)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      gone.push(row.id);
    }
  }
  if (gone.length > 0) {
    const messageColumns = (copy.prepare('select name from pragma_table_info(?)').pluck().all('messages') as string[]);
    const cards = messageColumns.includes('file') && messageColumns.includes('details');
    const markCard = cards ? copy.prepare("update messages set details = json_set(details, '$.deleted', json('true')) where file = ? and json_valid(details)") : undefined;
    const dropRow = copy.prepare('delete from files where id = ?');
    copy.transaction(() => {
      for (const id of gone) {
        markCard?.run(id);
        dropRow.run(id);
      }
    })();
  }
  return { count: rows.length - gone.length, bytes, gone: gone.length };
}

/**
 * On PostgreSQL: every stored file under `<data dir>/files`, partial uploads left out. Run after
 * pg_dump, this holds every file the dump names (and perhaps a few newer ones, which do no harm).
 */
async function copyEveryStoredFile(dataDir: string, target: string): Promise<FilesPart> {
  let count = 0;
  let bytes = 0;
  for (const file of storedFiles(dataDir)) {
    try {
      await copyPrivateFile(file.path, join(target, 'files', file.key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted meanwhile
      throw error;
    }
    count += 1;
    bytes += file.size;
  }
  return { kind: 'data-dir', count, bytes };
}

