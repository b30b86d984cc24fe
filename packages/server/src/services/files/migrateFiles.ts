import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileKey } from './fileStore';
import type { S3FileStore } from './s3FileStore';
import { filesRoot } from './storage';

export interface MigrationCounts {
  /** Files found under `<data>/files`. */
  found: number;
  copied: number;
  /** Already in the bucket with the same size: copied by an earlier run. */
  skipped: number;
}

/** Every stored file under `<data>/files` as its key and size; partial uploads and stray entries are left out. */
export function* storedFiles(dataDir: string): Generator<{ key: string; path: string; size: number }> {
  const root = filesRoot(dataDir);
  const folders = (path: string) => readdirSync(path, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  let chats: string[];
  try {
    chats = folders(root);
  } catch {
    return;
  }
  for (const chat of chats) {
    for (const record of folders(join(root, chat))) {
      for (const entry of readdirSync(join(root, chat, record), { withFileTypes: true })) {
        if (!entry.isFile()) continue;
        let key: string;
        try {
          key = fileKey(chat, record, entry.name);
        } catch {
          continue;
        }
        const path = join(root, chat, record, entry.name);
        yield { key, path, size: statSync(path).size };
      }
    }
  }
}

/**
 * Copies a data dir's files into the bucket under the same keys (`confab-server files migrate
 * --to s3`). The disk copies stay: the bucket takes over once the server starts with
 * CONFAB_FILES_S3_BUCKET. A file already in the bucket with the same size is skipped, so a run
 * that stopped half-way is resumed by running it again, and a second run copies nothing.
 */
export async function migrateFilesToBucket(dataDir: string, bucket: S3FileStore, progress: (counts: MigrationCounts) => void = () => {}): Promise<MigrationCounts> {
  const counts: MigrationCounts = { found: 0, copied: 0, skipped: 0 };
  for (const file of storedFiles(dataDir)) {
    counts.found += 1;
    const there = await bucket.head(file.key);
    if (there !== undefined && there.size === file.size) {
      counts.skipped += 1;
    } else {
      await bucket.copyFromFile(file.key, file.path, file.size);
      counts.copied += 1;
    }
    progress(counts);
  }
  return counts;
}
