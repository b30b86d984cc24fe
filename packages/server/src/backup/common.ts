import { constants as fsConstants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { serverRoot } from '../packages/servedPackages';
import { ContentCipher } from '../services/contentCipher';
import { parsePostgresUrl } from '../store/database';
import { privateFileMode, privateFolderMode } from '../store/privateDataDir';
import { secretName } from './manifest';

/** What backup and restore print; one line each. */
export type Say = (line: string) => void;

export function isPostgresUrl(databaseUrl: string | undefined): databaseUrl is string {
  return databaseUrl !== undefined && /^postgres(ql)?:/.test(databaseUrl.trim());
}

/** True when `inner` is `outer` or inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const path = relative(resolve(outer), resolve(inner));
  return path === '' || (!path.startsWith('..') && !path.startsWith(sep) && !/^[A-Za-z]:/.test(path));
}

/** Copies one file, refusing to overwrite, as a private file (0600) in private folders (0700). */
export async function copyPrivateFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: privateFolderMode });
  await copyFile(from, to, fsConstants.COPYFILE_EXCL);
  await chmod(to, privateFileMode);
}

/** The secret kept in `<folder>/secret`, or undefined when there is none (the server's own reading, config.ts). */
export function secretFileIn(folder: string): string | undefined {
  const path = join(folder, secretName);
  if (!existsSync(path)) return undefined;
  const stored = readFileSync(path, 'utf8').trim();
  return stored === '' ? undefined : stored;
}

/**
 * Whether `secret` is the key of `contentEncrypted` (a stored message body): message content is
 * AES-GCM under a key derived from the secret (services/contentCipher.ts), so a wrong secret
 * fails its tag. Neither is ever printed.
 */
export function secretReadsMessage(secret: string, contentEncrypted: string): boolean {
  try {
    new ContentCipher(secret, 'message-content').decrypt(contentEncrypted);
    return true;
  } catch {
    return false;
  }
}

/** The newest stored message body of a SQLite database, to check a secret against (every schema version has these columns). */
export function newestSqliteMessage(db: BetterSqlite3.Database): string | undefined {
  return db.prepare("select content_encrypted from messages where content_encrypted <> '' order by rowid desc limit 1").pluck().get() as string | undefined;
}

/** A string quoted for a POSIX shell. */
function shellQuoted(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The connection URL for pg_dump and pg_restore: the server's DATABASE_URL without its password
 * (pg_dump takes that from PGPASSWORD or ~/.pgpass) and without `?schema=`, which is the server's
 * own parameter (it becomes `--schema`).
 */
export function postgresCommandTarget(databaseUrl: string): { url: string; schemaFlag: string } {
  const { schema } = parsePostgresUrl(databaseUrl);
  const url = new URL(databaseUrl);
  url.password = '';
  url.searchParams.delete('password');
  url.searchParams.delete('schema');
  if (url.searchParams.get('options')?.includes('search_path') === true) url.searchParams.delete('options');
  return { url: shellQuoted(url.toString()), schemaFlag: schema === undefined ? '' : ` --schema=${schema}` };
}

export function pgDumpCommand(databaseUrl: string, dumpPath: string): string {
  const { url, schemaFlag } = postgresCommandTarget(databaseUrl);
  return `pg_dump --format=custom${schemaFlag} --file=${shellQuoted(dumpPath)} --dbname=${url}`;
}

/**
 * No `--schema` here: the dump holds only the server's schema already, and pg_restore with one
 * leaves out the schema itself, so it could not restore into a database that lost it.
 */
export function pgRestoreCommand(databaseUrl: string | undefined, dumpPath: string): string {
  const url = databaseUrl === undefined ? "'postgres://USER@HOST:5432/DATABASE'" : postgresCommandTarget(databaseUrl).url;
  return `pg_restore --clean --if-exists --no-owner --dbname=${url} ${shellQuoted(dumpPath)}`;
}

/** True when `path` is a folder with something in it. */
export function hasEntries(path: string): boolean {
  try {
    return statSync(path).isDirectory() && readdirSync(path).length > 0;
  } catch {
    return false;
  }
}

/** `12.3 MB`, for the summary lines. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** This @confab/server's version, for the manifest. */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(serverRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
