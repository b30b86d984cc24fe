import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { storageUnavailable, type FileStore } from './fileStore';

/**
 * Uploads go up in 5 MB parts (S3's smallest), one at a time: lib-storage buffers each part (and
 * briefly a copy while it joins the chunks read), so a 100 MB file costs the process ~10 MB on top
 * of what receiving it did, whatever its size. Parts in parallel would be faster and cost as much
 * again each.
 */
const partSize = 5 * 1024 * 1024;
const queueSize = 1;
/** A bucket that does not answer a connection within this long counts as down. */
const connectionTimeoutMs = 5_000;

/**
 * The S3 client from the SDK's own configuration (AWS_REGION, AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY or any other credential source, AWS_ENDPOINT_URL_S3), with `overrides`
 * over it. A custom endpoint (MinIO, R2, Ceph…) gets path-style addressing, and request
 * checksums only where the operation requires them, unless AWS_REQUEST_CHECKSUM_CALCULATION says
 * otherwise: several S3-compatible stores mishandle the SDK's streamed checksum framing.
 */
export function createS3Client(overrides: S3ClientConfig = {}, environment: NodeJS.ProcessEnv = process.env): S3Client {
  const customEndpoint = overrides.endpoint !== undefined || (environment['AWS_ENDPOINT_URL_S3'] ?? environment['AWS_ENDPOINT_URL'] ?? '') !== '';
  return new S3Client({
    ...(customEndpoint ? { forcePathStyle: true } : {}),
    ...(customEndpoint && environment['AWS_REQUEST_CHECKSUM_CALCULATION'] === undefined ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
    requestHandler: { connectionTimeout: connectionTimeoutMs },
    ...overrides,
  });
}

/** Whether an SDK error says the object is not there (as opposed to the bucket being unreachable). */
function isMissing(error: unknown): boolean {
  const named = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return named.name === 'NoSuchKey' || named.name === 'NotFound' || named.$metadata?.httpStatusCode === 404;
}

export interface S3FileStoreOptions {
  client: S3Client;
  bucket: string;
  /** Prepended to every key: '' or ending in a slash. */
  prefix?: string;
  /** Told why the bucket failed; the name and message of the SDK's error, never its request. */
  onError?: (problem: string) => void;
}

/** Chat files in an S3-compatible bucket, under `<prefix><chat>/<record>/<stored name>`. */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;

  constructor(private readonly options: S3FileStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
  }

  /** Logs the SDK's failure (name and message only) and gives the 503 the request answers. */
  private unavailable(error: unknown): Error {
    const { name, message } = error as { name?: string; message?: string };
    this.options.onError?.(`${name ?? 'Error'}: ${message ?? String(error)}`);
    return storageUnavailable();
  }

  async putFile(key: string, path: string, size: number): Promise<void> {
    await this.copyFromFile(key, path, size);
    await rm(path, { force: true });
  }

  /** Streams the file at `path` to `key`, leaving `path` as it is; on failure nothing stays under `key`. */
  async copyFromFile(key: string, path: string, size: number): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.prefix + key, Body: createReadStream(path), ContentLength: size },
      partSize,
      queueSize,
      // An upload that fails is aborted, so its parts do not linger (and cost) in the bucket.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The failure may come after the object was made (a lost answer): nothing stays under the key.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key })).catch(() => undefined);
      throw this.unavailable(error);
    }
  }

  /**
   * HeadBucket: the bucket exists and these credentials reach it (the s3:ListBucket permission
   * deletePrefix needs anyway). A readiness probe's failure is the probe's to report, not logged.
   */
  async ping(signal: AbortSignal): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      return { size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.unavailable(error);
    }
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.unavailable(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
    } catch (error) {
      if (!isMissing(error)) throw this.unavailable(error);
    }
  }

  /** Lists the prefix a page (1,000 keys) at a time and deletes each page in one request. */
  async deletePrefix(prefix: string): Promise<void> {
    if (prefix.replace(/\/+$/, '') === '') throw new Error('refusing to delete every file');
    try {
      let token: string | undefined;
      do {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [{ Key: object.Key }]));
        if (keys.length > 0) {
          const answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
          // A multi-object delete answers 200 with the keys it could not delete.
          const failed = answer.Errors ?? [];
          if (failed.length > 0) throw new Error(`${failed.length} objects not deleted: ${failed[0]?.Code ?? 'unknown'}`);
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  localPath(): undefined {
    return undefined;
  }

  async copyToFile(key: string, target: string): Promise<boolean> {
    const body = await this.get(key);
    if (body === undefined) return false;
    try {
      await pipeline(body, createWriteStream(target, { mode: 0o600 }));
    } catch (error) {
      await rm(target, { force: true });
      throw this.unavailable(error);
    }
    return true;
  }

  close(): void {
    this.client.destroy();
  }
}
