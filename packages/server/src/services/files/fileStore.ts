import type { Readable } from 'node:stream';
import { ConfabServerError } from '../../errors';

/**
 * Where the bytes of chat files live: the data dir's disk (the embedded default,
 * diskFileStore.ts) or an S3-compatible bucket (s3FileStore.ts), so that instances sharing a
 * database also share files. A key is `<chat id>/<record id>/<stored name>`, every part generated
 * by the server (see fileKey), the same relative path on disk and in the bucket. Uploads are
 * staged on local disk first either way (uploadParser.ts); a store takes them from there.
 */
export interface FileStore {
  readonly kind: 'disk' | 's3';
  /** Stores the file at `path` under `key` and removes `path`; on failure nothing stays under `key`. */
  putFile(key: string, path: string, size: number): Promise<void>;
  /** The object's size, or undefined when there is none. */
  head(key: string): Promise<{ size: number } | undefined>;
  /** The bytes from `start` to `end` inclusive (the whole object without a range), or undefined when there is none. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  /** Removes one object; removing a missing one is no error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (`<chat id>/`, `<chat id>/<record id>/`). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * The path of a key's bytes on this machine when the store keeps them on disk; undefined when a
   * reader must fetch a copy (copyToFile) first.
   */
  localPath(key: string): string | undefined;
  /** Writes the object's bytes to `target`; false when there is no such object. */
  copyToFile(key: string, target: string): Promise<boolean>;
  /**
   * Whether the store answers at all (a bucket's HeadBucket), for /api/ready; rejects when not.
   * Absent for the disk, which is this machine's own.
   */
  ping?(signal: AbortSignal): Promise<void>;
  /** Stops the store's connections. */
  close(): void;
}

const idPattern = /^[a-z0-9]{15}$/;
const storedNamePattern = /^[A-Za-z0-9._-]{1,255}$/;

/**
 * The key of a file record's bytes. Throws when a part is not what the server generates, so no
 * client input ever becomes a path or a key outside the chat's own prefix.
 */
export function fileKey(chatId: string, recordId: string, storedName: string): string {
  if (!idPattern.test(chatId) || !idPattern.test(recordId) || !storedNamePattern.test(storedName) || storedName.startsWith('.')) {
    throw new Error('invalid file key');
  }
  return `${chatId}/${recordId}/${storedName}`;
}

/** What a file request answers when the bucket cannot be reached: a 503, and nothing stored or lost. */
export function storageUnavailable(): ConfabServerError {
  return new ConfabServerError('unavailable', 'File storage is unavailable. Please try again shortly.');
}

/** `my-bucket/confab/` → bucket `my-bucket`, key prefix `confab/` (always ending in a slash, or ''). */
export function parseBucket(value: string): { bucket: string; prefix: string } {
  const [bucket = '', ...rest] = value.trim().replace(/^s3:\/\//, '').split('/');
  if (bucket === '') throw new Error('CONFAB_FILES_S3_BUCKET needs a bucket name, e.g. my-bucket or my-bucket/confab/');
  const prefix = rest.filter((part) => part !== '').join('/');
  return { bucket, prefix: prefix === '' ? '' : `${prefix}/` };
}
