import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `manifest.json` of a backup folder; written last, so a folder without one is not a finished backup. */
export const manifestName = 'manifest.json';
/** The SQLite snapshot in a backup folder. */
export const databaseName = 'confab.db';
/** Where the operator's `pg_dump` goes in a backup folder of a server on PostgreSQL. */
export const postgresDumpName = 'confab.pgdump';
/** The server secret (the key material of message content and stored provider keys). */
export const secretName = 'secret';

export const manifestFormat = 'confab-backup';
/** The manifest layout this server writes and reads. */
export const manifestVersion = 1;

export interface BackupManifest {
  format: typeof manifestFormat;
  version: number;
  /** When the backup started (ISO 8601): the database snapshot is of this moment or a little later. */
  createdAt: string;
  /** The @confab/server version that made it. */
  serverVersion: string;
  database:
    | { kind: 'sqlite'; file: typeof databaseName; bytes: number; sha256: string }
    /** `dump` names confab.pgdump when the operator's pg_dump was in the folder, else null. */
    | { kind: 'postgresql'; dump: string | null; dumpSha256: string | null };
  /** The last schema migration applied (e.g. `018_mention_times`) and how many; null when the database could not be read. */
  schema: { migration: string; migrations: number } | null;
  /** Rows at snapshot time; null on PostgreSQL when the database could not be reached. */
  counts: { messages: number; files: number; users: number; chats: number } | null;
  /** `data-dir`: `files/` in this folder holds `count` files; `bucket`: they stay in the bucket. */
  files: { kind: 'data-dir'; count: number; bytes: number } | { kind: 'bucket'; bucket: string; prefix: string };
  /**
   * `data-dir`: `secret` in this folder is the key material; `environment`: the server took it
   * from CONFAB_SECRET, which the operator keeps (the backup does not hold it).
   */
  secret: 'data-dir' | 'environment';
  /** File rows left out because their bytes were gone when copied (deleted while the backup ran). */
  filesDeletedDuringBackup: number;
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the manifest through a temporary name, so it appears whole or not at all. */
export function writeManifest(folder: string, manifest: BackupManifest): void {
  const path = join(folder, manifestName);
  writeFileSync(`${path}.partial`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.partial`, path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads and checks a backup folder's manifest; every problem is an error saying what is wrong. */
export function readManifest(folder: string): BackupManifest {
  const path = join(folder, manifestName);
  if (!existsSync(path)) {
    throw new Error(`${folder} holds no ${manifestName}: it is not a confab-server backup, or one that did not finish`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(`${path} is not valid JSON: the backup is damaged`);
  }
  if (!isRecord(parsed) || parsed['format'] !== manifestFormat) throw new Error(`${path} is not a confab-server backup manifest`);
  if (parsed['version'] !== manifestVersion) {
    throw new Error(`${path} has manifest version ${String(parsed['version'])}; this server reads version ${manifestVersion}: restore it with the Confab version that made it (${String(parsed['serverVersion'])}) or newer`);
  }
  const database = parsed['database'];
  const files = parsed['files'];
  const counts = parsed['counts'];
  const schema = parsed['schema'];
  const valid =
    typeof parsed['createdAt'] === 'string' &&
    isRecord(database) &&
    (database['kind'] === 'sqlite' ? typeof database['sha256'] === 'string' && typeof database['bytes'] === 'number' : database['kind'] === 'postgresql') &&
    isRecord(files) &&
    (files['kind'] === 'data-dir' || (files['kind'] === 'bucket' && typeof files['bucket'] === 'string')) &&
    (counts === null || (isRecord(counts) && typeof counts['messages'] === 'number' && typeof counts['files'] === 'number')) &&
    (schema === null || (isRecord(schema) && typeof schema['migration'] === 'string')) &&
    (parsed['secret'] === 'data-dir' || parsed['secret'] === 'environment');
  if (!valid) throw new Error(`${path} lacks fields a backup manifest has: the backup is damaged`);
  if (database['kind'] === 'sqlite' && (counts === null || schema === null)) throw new Error(`${path} lacks the counts of its SQLite snapshot: the backup is damaged`);
  return parsed as unknown as BackupManifest;
}
