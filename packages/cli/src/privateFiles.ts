/**
 * How the CLI writes what must stay the user's own: the session (an auth token) and agent keys
 * (docs/SECURITY.md L1). Someone who can write into the config folder, or made it first, must
 * not get them by planting a symbolic link where one will be written:
 * - every folder from the config folder down is a plain folder of the user's own, 0700 (an
 *   existing wider one is narrowed); a symbolic link is refused;
 * - a symbolic link (or anything but a plain file) at the file's path is refused;
 * - the content goes to a new file beside it (created exclusively, 0600, never through a link),
 *   flushed, then renamed over the target: a reader sees the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { CliError } from './output';

const folderMode = 0o700;
const fileMode = 0o600;

/** Writes `content` to `path` (inside `root`, the config folder) as described above. */
export async function writePrivateFile(root: string, path: string, content: string): Promise<void> {
  for (const folder of foldersFrom(root, dirname(path))) await privateFolder(folder);
  await refuseAnythingButAFile(path);
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), fileMode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `root`, then each folder below it down to `folder`. */
function foldersFrom(root: string, folder: string): string[] {
  const parts = relative(root, folder).split(sep).filter((part) => part !== '');
  if (parts[0] === '..') throw new Error(`${folder} is outside ${root}`);
  return [root, ...parts.map((_, index) => join(root, ...parts.slice(0, index + 1)))];
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function privateFolder(folder: string): Promise<void> {
  let stat = await lstatOrNull(folder);
  if (stat === null) {
    await mkdir(folder, { recursive: true, mode: folderMode });
    stat = await lstat(folder);
  }
  if (stat.isSymbolicLink()) {
    throw new CliError(`${folder} is a symbolic link. Confab keeps keys and sessions only in plain folders: remove the link, or point CONFAB_CONFIG_DIR at a plain folder.`);
  }
  if (!stat.isDirectory()) throw new CliError(`${folder} is not a folder. Move it away, or point CONFAB_CONFIG_DIR at another folder.`);
  if (process.getuid !== undefined && stat.uid !== process.getuid()) {
    throw new CliError(`${folder} belongs to another account. Confab keeps keys and sessions only in your own folders: point CONFAB_CONFIG_DIR at one.`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) await chmod(folder, folderMode);
}

async function refuseAnythingButAFile(path: string): Promise<void> {
  const stat = await lstatOrNull(path);
  if (stat === null || stat.isFile()) return;
  if (stat.isSymbolicLink()) throw new CliError(`${path} is a symbolic link. Confab writes keys and sessions only to plain files: remove it and try again.`);
  throw new CliError(`${path} is not a plain file. Move it away and try again.`);
}
