import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { chmod, copyFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { fileKey } from '../services/files/fileStore';
import { storedFiles } from '../services/files/migrateFiles';
import { filesRoot } from '../services/files/storage';
import { migrationNames } from '../store/migrations/index';
import { privateFileMode, privateFolderMode } from '../store/privateDataDir';
import { copyPrivateFile, isPostgresUrl, isWithin, newestSqliteMessage, pgRestoreCommand, secretFileIn, secretReadsMessage, type Say } from './common';
import { databaseName, postgresDumpName, readManifest, secretName, sha256Of, type BackupManifest } from './manifest';

export interface RestoreOptions {
  /** A folder `confab-server backup` made. */
  backupDir: string;
  /** The data dir to restore into (`--data-dir`, CONFAB_DATA_DIR); created when missing. */
  dataDir: string;
  /** Replace a data dir that already holds a database, a secret or files. */
  force: boolean;
  /** DATABASE_URL here: names the database in the pg_restore line of a PostgreSQL backup. */
  databaseUrl: string | undefined;
  /** CONFAB_FILES_S3_BUCKET here. */
  filesS3Bucket: string | undefined;
  /** CONFAB_SECRET here: checked against the backup's messages like the backup's own secret. */
  environmentSecret: string | undefined;
  say: Say;
}

/** What the data dir already holds of a server's state; empty for a fresh one. */
function stateIn(dataDir: string): string[] {
  const state: string[] = [];
  if (existsSync(join(dataDir, databaseName))) state.push(databaseName);
  if (existsSync(join(dataDir, secretName))) state.push(secretName);
  if (!storedFiles(dataDir).next().done) state.push('files/');
  return state;
}

/**
 * `confab-server restore <dir>`: puts a backup into a data dir. Everything in the backup is
 * checked before the data dir is touched: the manifest, the snapshot's checksum, SQLite's
 * integrity check, the counts against the manifest, every file row's file and size, and that the secret
 * decrypts the messages. Then files and secret are put in place and the database last (a rename),
 * so a restore that fails half-way leaves no database that looks whole. The server migrates the
 * restored database to its schema when it starts, as always.
 */
export async function restoreBackup(options: RestoreOptions): Promise<BackupManifest> {
  const backupDir = resolve(options.backupDir);
  const dataDir = resolve(options.dataDir);
  const { say } = options;
  if (!existsSync(backupDir)) throw new Error(`there is no backup at ${backupDir}`);
  if (!statSync(backupDir).isDirectory()) throw new Error(`${backupDir} is not a folder: give the folder confab-server backup wrote`);
  if (isWithin(dataDir, backupDir) || isWithin(backupDir, dataDir)) throw new Error(`the data dir ${dataDir} and the backup ${backupDir} must be separate folders`);
  const manifest = readManifest(backupDir);
  const latest = migrationNames.at(-1) ?? '';
  if (manifest.schema !== null && manifest.schema.migration !== '' && !migrationNames.includes(manifest.schema.migration)) {
    throw new Error(`the backup's schema (${manifest.schema.migration}) is newer than this server's (${latest}): restore it with Confab ${manifest.serverVersion} or newer`);
  }
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw new Error(`${dataDir} is not a folder`);
  mkdirSync(dataDir, { recursive: true, mode: privateFolderMode });
  const state = stateIn(dataDir);
  if (state.length > 0 && !options.force) {
    throw new Error(`${dataDir} already holds a server's data (${state.join(', ')}): restore would replace it. Stop the server that uses it, then run restore again with --force`);
  }
  const backupSecret = secretFileIn(backupDir);
  if (manifest.secret === 'data-dir' && backupSecret === undefined) throw new Error(`${join(backupDir, secretName)} is missing: the backup is damaged (without the secret its messages cannot be read)`);
  const environmentSecret = options.environmentSecret?.trim() || undefined;

  const staging = join(dataDir, `${databaseName}.restoring`);
  try {
    let fileRows: { chat: string; id: string; file: string; size: number }[] | undefined;
    if (manifest.database.kind === 'sqlite') {
      fileRows = await stageSqlite(backupDir, staging, manifest, backupSecret, environmentSecret);
    } else if (manifest.secret === 'environment' && environmentSecret === undefined) {
      say('The backed-up server took its secret from CONFAB_SECRET: start the restored server with that same value.');
    }
    if (manifest.files.kind === 'data-dir') checkBackupFiles(backupDir, manifest, fileRows);

    // The backup holds up: from here on the data dir changes.
    if (options.force) {
      await refuseDatabaseInUse(dataDir);
      for (const name of [databaseName, `${databaseName}-wal`, `${databaseName}-shm`, `${databaseName}-journal`, secretName]) rmSync(join(dataDir, name), { force: true });
      rmSync(filesRoot(dataDir), { recursive: true, force: true });
    }
    let restoredFiles = 0;
    for (const file of storedFiles(backupDir)) {
      await copyPrivateFile(file.path, join(filesRoot(dataDir), file.key));
      restoredFiles += 1;
    }
    if (backupSecret !== undefined) await copyPrivateFile(join(backupDir, secretName), join(dataDir, secretName));
    if (manifest.database.kind === 'sqlite') renameSync(staging, join(dataDir, databaseName));

    say(`Restored ${backupDir} (made ${manifest.createdAt} by Confab ${manifest.serverVersion}) into ${dataDir}: ${summary(manifest, restoredFiles)}.`);
    tellNextSteps(manifest, options, backupDir, dataDir, latest, environmentSecret, backupSecret);
    return manifest;
  } finally {
    rmSync(staging, { force: true });
  }
}

/**
 * A server still running on the data dir would lose its database under it: SQLite leaves WAL mode
 * only when no other connection has the database open, so trying that (without waiting) tells.
 * The database is about to be replaced, so its journal mode does not matter any more.
 */
async function refuseDatabaseInUse(dataDir: string): Promise<void> {
  const path = join(dataDir, databaseName);
  if (!existsSync(path)) return;
  const { default: Sqlite } = await import('better-sqlite3');
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Sqlite(path, { fileMustExist: true, timeout: 0 });
    db.pragma('journal_mode = DELETE');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
      throw new Error(`${path} is in use, by a server running on ${dataDir}: stop it, then run restore again`);
    }
    // Not a database SQLite can open (damaged, or not one at all): it is replaced all the same.
  } finally {
    db?.close();
  }
}

/**
 * Copies the snapshot to `staging` in the data dir and checks it: checksum, integrity, counts, and
 * that the secret the server will use decrypts a message. Answers its file rows.
 */
async function stageSqlite(
  backupDir: string,
  staging: string,
  manifest: BackupManifest,
  backupSecret: string | undefined,
  environmentSecret: string | undefined,
): Promise<{ chat: string; id: string; file: string; size: number }[]> {
  const database = manifest.database;
  if (database.kind !== 'sqlite') throw new Error('not a SQLite backup');
  const source = join(backupDir, databaseName);
  if (!existsSync(source)) throw new Error(`${source} is missing: the backup is damaged`);
  rmSync(staging, { force: true });
  await copyFile(source, staging);
  await chmod(staging, privateFileMode);
  if ((await sha256Of(staging)) !== database.sha256) throw new Error(`${source} does not match the checksum in the manifest: the backup is damaged`);
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(staging, { fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${source} fails SQLite's integrity check (${String(integrity)}): the backup is damaged`);
    const count = (table: string) => Number(db.prepare(`select count(*) from ${table}`).pluck().get());
    const counts = { messages: count('messages'), files: count('files') };
    if (counts.messages !== manifest.counts?.messages || counts.files !== manifest.counts.files) {
      throw new Error(`${source} holds ${counts.messages} messages and ${counts.files} files, the manifest says ${manifest.counts?.messages} and ${manifest.counts?.files}: the backup is damaged`);
    }
    const sample = newestSqliteMessage(db);
    if (sample !== undefined) {
      if (environmentSecret !== undefined && !secretReadsMessage(environmentSecret, sample)) {
        throw new Error(`CONFAB_SECRET is set here, and a server started with it could not read the restored messages: ${backupSecret === undefined ? 'set it to the value the backed-up server used' : 'unset it (the backup holds its own secret) or set it to the backed-up server\'s'}`);
      }
      if (environmentSecret === undefined) {
        if (backupSecret === undefined) throw new Error('the backed-up server took its secret from CONFAB_SECRET: set CONFAB_SECRET to that value for restore (it checks that the secret reads the messages) and for the server');
        if (!secretReadsMessage(backupSecret, sample)) throw new Error(`${join(backupDir, secretName)} does not decrypt the backup's messages: the backed-up server used CONFAB_SECRET; set it to that value`);
      }
    }
    return db.prepare('select chat, id, file, size from files').all() as { chat: string; id: string; file: string; size: number }[];
  } finally {
    db.close();
  }
}

/** Every file row's bytes are in the backup with the row's size (SQLite), or the backup holds the count the manifest says (PostgreSQL). */
function checkBackupFiles(backupDir: string, manifest: BackupManifest, rows: { chat: string; id: string; file: string; size: number }[] | undefined): void {
  if (rows === undefined) {
    const count = Array.from(storedFiles(backupDir)).length;
    if (manifest.files.kind === 'data-dir' && count !== manifest.files.count) {
      throw new Error(`${filesRoot(backupDir)} holds ${count} files, the manifest says ${manifest.files.count}: the backup is damaged`);
    }
    return;
  }
  for (const row of rows) {
    const path = join(filesRoot(backupDir), fileKey(row.chat, row.id, row.file));
    let size: number | undefined;
    try {
      size = statSync(path).size;
    } catch {
      size = undefined;
    }
    if (size === undefined) throw new Error(`${path} is missing: the backup is damaged (file ${row.id} of chat ${row.chat})`);
    if (size !== Number(row.size)) throw new Error(`${path} has ${size} bytes, its row says ${row.size}: the backup is damaged`);
  }
}

function summary(manifest: BackupManifest, restoredFiles: number): string {
  const parts: string[] = [];
  if (manifest.database.kind === 'sqlite') parts.push(`the database (${manifest.counts?.messages} messages, ${manifest.counts?.files} files, ${manifest.counts?.users} users)`);
  parts.push(manifest.files.kind === 'data-dir' ? `${restoredFiles} file(s)` : `no files (they are in s3://${manifest.files.bucket}/${manifest.files.prefix})`);
  parts.push(manifest.secret === 'data-dir' ? 'the secret' : 'no secret (the server used CONFAB_SECRET)');
  return parts.join('; ');
}

function tellNextSteps(
  manifest: BackupManifest,
  options: RestoreOptions,
  backupDir: string,
  dataDir: string,
  latest: string,
  environmentSecret: string | undefined,
  backupSecret: string | undefined,
): void {
  const { say } = options;
  if (manifest.database.kind === 'postgresql') {
    if (manifest.database.dump === null) {
      say('The backed-up server ran on PostgreSQL and this backup holds no pg_dump: restore the database from the dump you took with it.');
    } else {
      say('The backed-up server ran on PostgreSQL: restore its database with pg_restore (password from PGPASSWORD or ~/.pgpass):');
      say(`  ${pgRestoreCommand(isPostgresUrl(options.databaseUrl) ? options.databaseUrl : undefined, join(backupDir, postgresDumpName))}`);
    }
  } else if (isPostgresUrl(options.databaseUrl)) {
    say(`DATABASE_URL names PostgreSQL here: a server started with it would not use the restored ${join(dataDir, databaseName)}; start it without DATABASE_URL.`);
  }
  if (manifest.files.kind === 'bucket') {
    say(`The files stay in s3://${manifest.files.bucket}/${manifest.files.prefix}: start the server with CONFAB_FILES_S3_BUCKET naming it (restore them from the bucket's versions or replica if they are lost).`);
  } else if (options.filesS3Bucket?.trim()) {
    say(`CONFAB_FILES_S3_BUCKET is set here: copy the restored files into it with \`confab-server files migrate --to s3 --data-dir ${dataDir}\` before starting the server.`);
  }
  if (environmentSecret !== undefined && backupSecret !== undefined) say('CONFAB_SECRET is set here; it reads the restored messages, so start the server with it.');
  const from = manifest.schema?.migration ?? '';
  const migrates = from !== '' && from !== latest ? `; it migrates the database from ${from} to ${latest} as it starts` : '';
  say(`Start the server with --data-dir ${dataDir}${migrates}.`);
}
