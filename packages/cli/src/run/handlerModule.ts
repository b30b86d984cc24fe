/**
 * The developer's handler module for `confab run`: imported once at start, imported again when the
 * file changes. ESM caches modules by URL, so each load adds a fresh `?v=N` query; modules the
 * handler imports itself stay cached (restart to pick up their changes).
 */
import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MentionHandler } from '@confab/client/agent';

/** Editors write a file in several steps: reload once things have been quiet this long. */
const reloadDebounceMs = 150;

let loads = 0;

/** Imports the module and returns its default export; throws a message fit to print. */
export async function importHandler(file: string): Promise<MentionHandler> {
  loads += 1;
  const url = pathToFileURL(file);
  url.search = `v=${loads}`;
  let module: { default?: unknown };
  try {
    module = (await import(url.href)) as { default?: unknown };
  } catch (error) {
    const line = error instanceof SyntaxError ? await syntaxErrorLine(file) : null;
    const where = line === null ? basename(file) : `${basename(file)} (line ${line})`;
    throw new Error(`Could not load ${where}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  if (typeof module.default !== 'function') {
    throw new Error(`${basename(file)} must export its handler as default: export default async (mention, reply) => { … }`);
  }
  return module.default as MentionHandler;
}

/**
 * The line of a syntax error: an ES module's SyntaxError carries no position, but `node --check`
 * prints `<file>:<line>` first. Null when it cannot say.
 */
function syntaxErrorLine(file: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--check', file], { timeout: 5_000 }, (_error, _stdout, stderr) => {
      const first = String(stderr).split('\n')[0] ?? '';
      const match = /:(\d+)$/.exec(first);
      resolve(match?.[1] === undefined ? null : Number(match[1]));
    });
  });
}

/**
 * Calls `changed` after the file's content changes, and `stirred` at every write to it (before
 * things are quiet again). Watches the directory rather than the file:
 * editors that save by writing a new file and renaming it would end a watch on the old file.
 * Returns the function that stops watching.
 */
export function watchHandler(file: string, changed: () => void, stirred: () => void = () => {}): () => void {
  const name = basename(file);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastContent: string | null = null;
  void readFile(file, 'utf8').then(
    (content) => (lastContent ??= content),
    () => {},
  );
  const watcher = watch(dirname(file), (_event, changedName) => {
    if (changedName !== null && changedName.toString() !== name) return;
    stirred();
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      // Touching or re-saving the same text is not a change worth a reload line.
      void readFile(file, 'utf8').then(
        (content) => {
          if (content === lastContent) return;
          lastContent = content;
          changed();
        },
        () => {}, // mid-rename: the next event brings the new file
      );
    }, reloadDebounceMs);
  });
  watcher.on('error', () => {}); // the directory went away: keep running the loaded handler
  return () => {
    if (timer !== null) clearTimeout(timer);
    watcher.close();
  };
}
