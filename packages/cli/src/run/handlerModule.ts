/**
 * The developer's handler module for `confab run`: imported once at start, imported again when the
 * file changes. ESM caches modules by URL, so each load adds a fresh `?v=N` query; modules the
 * handler imports itself stay cached (restart to pick up their changes).
 */
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
    throw new Error(`Could not load ${basename(file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof module.default !== 'function') {
    throw new Error(`${basename(file)} must export its handler as default: export default async (mention, reply) => { … }`);
  }
  return module.default as MentionHandler;
}

/**
 * Calls `changed` after the file's content changes. Watches the directory rather than the file:
 * editors that save by writing a new file and renaming it would end a watch on the old file.
 * Returns the function that stops watching.
 */
export function watchHandler(file: string, changed: () => void): () => void {
  const name = basename(file);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastContent: string | null = null;
  void readFile(file, 'utf8').then(
    (content) => (lastContent ??= content),
    () => {},
  );
  const watcher = watch(dirname(file), (_event, changedName) => {
    if (changedName !== null && changedName.toString() !== name) return;
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
