import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory holds password hashes, the search index (the text of uploaded files), the
 * server secret and mails with live links: only the account the server runs as may read any of
 * it (docs/SECURITY.md A14). Folders are 0700 and files 0600.
 *
 * The modes are set where things are made, not through the process umask: `startServer` may run
 * inside someone else's process, whose own files a process-wide umask would change. (The
 * `confab-server` binary owns its process and sets umask 077 besides, for files that libraries
 * create.) SQLite creates `-wal` and `-shm` with the mode of the database file itself, so a
 * database file made 0600 keeps its companions private too.
 */
export const privateFolderMode = 0o700;
export const privateFileMode = 0o600;

/** `mkdir -p` whose every new folder is 0700. */
export function makePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: privateFolderMode });
}

/** Creates an empty 0600 file unless one exists (a file that exists keeps its mode: see `tightenDataDir`). */
export function makePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', privateFileMode));
}

/** What the server keeps in its data dir; anything else there is someone else's and left alone. */
const ownedNames = [/^confab\.db(-wal|-shm|-journal)?$/, /^secret$/, /^files$/, /^outbox$/, /^tmp$/];

export interface WiderEntry {
  path: string;
  /** The mode it had, e.g. '644'. */
  mode: string;
  /** False when the server could not narrow it (another account owns it). */
  tightened: boolean;
}

/**
 * Narrows the data dir and what the server keeps in it (the database files, the secret, the
 * files, outbox and tmp folders, all the way down) to 0700 folders and 0600 files, and answers what
 * was wider, for a start-up warning. Symbolic links are neither followed nor changed. Nothing
 * to do on Windows, whose files have no such modes.
 */
export function tightenDataDir(dataDir: string): WiderEntry[] {
  if (process.platform === 'win32') return [];
  const wider: WiderEntry[] = [];
  const visit = (path: string, recurse: boolean) => {
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink() || !(stat.isDirectory() || stat.isFile())) return;
    const wanted = stat.isDirectory() ? privateFolderMode : privateFileMode;
    const mode = stat.mode & 0o777;
    if ((mode & ~wanted) !== 0) wider.push({ path, mode: mode.toString(8), tightened: narrow(path, wanted) });
    if (stat.isDirectory() && recurse) for (const name of readdirSync(path)) visit(join(path, name), true);
  };
  visit(dataDir, false);
  for (const name of readdirSync(dataDir)) if (ownedNames.some((pattern) => pattern.test(name))) visit(join(dataDir, name), true);
  return wider;
}

function narrow(path: string, mode: number): boolean {
  try {
    chmodSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** The start-up warning: where, and which modes, never what the files hold. At most 20 paths. */
export function warnAboutWiderEntries(logger: { warn(object: Record<string, unknown>, message: string): void }, dataDir: string, wider: readonly WiderEntry[]): void {
  const list = (entries: readonly WiderEntry[]) => entries.slice(0, 20).map((entry) => `${entry.path} (${entry.mode})`);
  const tightened = wider.filter((entry) => entry.tightened);
  const left = wider.filter((entry) => !entry.tightened);
  if (tightened.length > 0) {
    logger.warn({ dataDir, count: tightened.length, paths: list(tightened) }, 'data files or folders were open to other accounts; narrowed to 0600 files and 0700 folders');
  }
  if (left.length > 0) {
    logger.warn({ dataDir, count: left.length, paths: list(left) }, 'data files or folders are open to other accounts and could not be narrowed (another account owns them): make them 0600 files and 0700 folders');
  }
}
