/**
 * The file store suite, on the disk and on an S3-protocol bucket (s3rver, see support/bucket.ts):
 * storing a staged file, ranges, heads, deletion by key and by prefix, local copies; a failed
 * upload leaves nothing under its key, and a bucket that is down is a 503.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfabServerError } from '../src/errors';
import { DiskFileStore } from '../src/services/files/diskFileStore';
import { fileKey, parseBucket, type FileStore } from '../src/services/files/fileStore';
import { S3FileStore } from '../src/services/files/s3FileStore';
import { startTestBucket, type TestBucket } from './support/bucket';

const chat = 'aaaaaaaaaaaaaa1';
const record = 'bbbbbbbbbbbbbb1';

async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (stream === undefined) throw new Error('no such object');
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('file keys and bucket settings', () => {
  it('accepts only keys the server generates', () => {
    expect(fileKey(chat, record, 'report_abcdefghij.pdf')).toBe(`${chat}/${record}/report_abcdefghij.pdf`);
    expect(() => fileKey('../etc', record, 'x.txt')).toThrow();
    expect(() => fileKey(chat, record, '../x.txt')).toThrow();
    expect(() => fileKey(chat, record, '.hidden')).toThrow();
    expect(() => fileKey(chat, record, 'a/b.txt')).toThrow();
  });

  it('reads a bucket with an optional prefix', () => {
    expect(parseBucket('my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
    expect(parseBucket('my-bucket/confab/')).toEqual({ bucket: 'my-bucket', prefix: 'confab/' });
    expect(parseBucket('s3://my-bucket/a/b')).toEqual({ bucket: 'my-bucket', prefix: 'a/b/' });
    expect(() => parseBucket('/x')).toThrow(/bucket name/);
  });
});

const stores = ['disk', 's3'] as const;

describe.each(stores)('file store (%s)', (kind) => {
  let bucket: TestBucket | undefined;
  let store: FileStore;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'confab-store-'));
    if (kind === 'disk') {
      store = new DiskFileStore(work);
    } else {
      bucket = await startTestBucket();
      const options = bucket.serverOptions('prefix/');
      const { bucket: name, prefix } = parseBucket(options.filesS3Bucket!);
      store = new S3FileStore({ client: bucket.client, bucket: name, prefix });
    }
  });

  afterAll(async () => {
    await bucket?.close();
    rmSync(work, { recursive: true, force: true });
  });

  function staged(bytes: Buffer): string {
    const path = join(work, `staged-${randomBytes(4).toString('hex')}`);
    writeFileSync(path, bytes);
    return path;
  }

  it('stores a staged file (removing the staged copy), reads it whole and by range, and deletes it', async () => {
    const bytes = randomBytes(300_000);
    const path = staged(bytes);
    const key = fileKey(chat, record, 'data_abcdefghij.bin');
    await store.putFile(key, path, bytes.length);
    expect(existsSync(path)).toBe(false);
    expect(await store.head(key)).toEqual({ size: bytes.length });
    expect((await bytesOf(await store.get(key))).equals(bytes)).toBe(true);
    expect((await bytesOf(await store.get(key, { start: 1000, end: 1999 }))).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect((await bytesOf(await store.get(key, { start: bytes.length - 1, end: bytes.length - 1 }))).equals(bytes.subarray(-1))).toBe(true);
    await store.delete(key);
    expect(await store.head(key)).toBeUndefined();
    expect(await store.get(key)).toBeUndefined();
    await store.delete(key);
  });

  it('keeps files larger than one upload part byte for byte', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 17);
    const key = fileKey(chat, 'bbbbbbbbbbbbbb2', 'big_abcdefghij.csv');
    await store.putFile(key, staged(bytes), bytes.length);
    expect(await store.head(key)).toEqual({ size: bytes.length });
    const copy = join(work, 'copy.csv');
    expect(await store.copyToFile(key, copy)).toBe(true);
    expect(readFileSync(copy).equals(bytes)).toBe(true);
    expect(await store.copyToFile(fileKey(chat, 'bbbbbbbbbbbbbb9', 'none_abcdefghij.csv'), join(work, 'none.csv'))).toBe(false);
    await store.delete(key);
  });

  it("deletes a record's or a chat's files by prefix, and nobody else's", async () => {
    const keep = fileKey('cccccccccccccc1', record, 'keep_abcdefghij.txt');
    const first = fileKey(chat, 'ddddddddddddd01', 'one_abcdefghij.txt');
    const second = fileKey(chat, 'ddddddddddddd02', 'two_abcdefghij.txt');
    for (const key of [keep, first, second]) await store.putFile(key, staged(Buffer.from(key)), key.length);
    await store.deletePrefix(`${chat}/ddddddddddddd01/`);
    expect(await store.head(first)).toBeUndefined();
    expect(await store.head(second)).toEqual({ size: second.length });
    await store.deletePrefix(`${chat}/`);
    expect(await store.head(second)).toBeUndefined();
    expect(await store.head(keep)).toEqual({ size: keep.length });
    await expect(store.deletePrefix('')).rejects.toThrow();
  });

  it('reads files in place on disk and says a bucket needs copies', () => {
    const key = fileKey(chat, record, 'x_abcdefghij.csv');
    if (kind === 'disk') expect(store.localPath(key)).toBe(join(work, 'files', key));
    else expect(store.localPath(key)).toBeUndefined();
  });
});

describe('file store on a bucket that fails', () => {
  let bucket: TestBucket;
  let work: string;

  beforeAll(async () => {
    bucket = await startTestBucket();
    work = mkdtempSync(join(tmpdir(), 'confab-store-'));
  });

  afterAll(async () => {
    await bucket.start();
    await bucket.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('aborts a multipart upload whose source fails half-way, and leaves nothing under its key', async () => {
    // s3rver answers AbortMultipartUpload with 405, so the test sees that it was asked for.
    const sent: string[] = [];
    bucket.client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'recordCommands' },
    );
    const store = new S3FileStore({ client: bucket.client, bucket: bucket.bucket });
    const path = join(work, 'short.bin');
    // Claims 20 MB, holds 10: the upload's source ends before its parts do.
    writeFileSync(path, randomBytes(10 * 1024 * 1024));
    const key = fileKey(chat, record, 'short_abcdefghij.bin');
    await expect(store.putFile(key, path, 20 * 1024 * 1024)).rejects.toThrow();
    expect(await store.head(key)).toBeUndefined();
    await expect(bucket.keys()).resolves.not.toContain(key);
    bucket.client.middlewareStack.remove('recordCommands');
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent).toContain('AbortMultipartUploadCommand');
  });

  it('answers 503 while the bucket is down, and serves again once it is back', async () => {
    const problems: string[] = [];
    const store = new S3FileStore({ client: bucket.client, bucket: bucket.bucket, onError: (problem) => problems.push(problem) });
    const key = fileKey(chat, record, 'up_abcdefghij.txt');
    await store.putFile(key, join(work, 'up.txt'), 0).catch(() => undefined);
    writeFileSync(join(work, 'up.txt'), 'hello');
    await store.putFile(key, join(work, 'up.txt'), 5);
    await bucket.stop();
    writeFileSync(join(work, 'down.txt'), 'not stored');
    const refused = await store.putFile(fileKey(chat, record, 'down_abcdefghij.txt'), join(work, 'down.txt'), 10).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfabServerError);
    expect(refused).toMatchObject({ status: 503, message: 'File storage is unavailable. Please try again shortly.' });
    expect(existsSync(join(work, 'down.txt'))).toBe(true);
    await expect(store.head(key)).rejects.toMatchObject({ status: 503 });
    await expect(store.get(key)).rejects.toMatchObject({ status: 503 });
    await expect(store.deletePrefix(`${chat}/`)).rejects.toMatchObject({ status: 503 });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).not.toContain('S3RVER');
    await bucket.start();
    expect(await store.head(key)).toEqual({ size: 5 });
  });
});
