import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfabServerError } from '../errors';
import { incomingDirectory, StagedUpload } from '../services/files/storage';
import type { UploadQuota } from '../services/files/uploadQuota';
import { sniffBytes, uploadMaximumBytes } from '../services/files/uploadRules';
import { inferFormValue } from './bodyParsers';

declare module 'fastify' {
  interface FastifyRequest {
    /** Temporary files of this request; whatever is still there when the answer is sent is removed. */
    stagedUploadPaths: string[] | undefined;
  }
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

export const fileTooLargeMessage = 'File is too large. Maximum size is 100MB.';

/** Counts bytes, keeps the first `sniffBytes` of them, and stops the stream past the limit. */
class CountingTap extends Transform {
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly limit: number) {
    super();
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks, this.headLength);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      callback(new ConfabServerError('payloadTooLarge', fileTooLargeMessage));
      return;
    }
    if (this.headLength < sniffBytes) {
      const part = chunk.subarray(0, sniffBytes - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    callback(null, chunk);
  }
}

/** Only the files collection's create takes uploads; it is streamed, never held in memory. */
export function isUploadRequest(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
  return path === '/api/collections/files/records';
}

function removeQuietly(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Streams one multipart upload to `<data>/files/.incoming/<random>.part`, counting as it goes.
 * Past 100 MB the request is refused with 413 at once and the partial file removed; the rest of
 * the body is not stored (see lingerThenClose). The parsed body is the form's fields plus
 * `file` as a StagedUpload; the files collection moves it into place or the request's end
 * removes it.
 */
export function parseUpload(dataDir: string, quota: UploadQuota, request: FastifyRequest, payload: Readable): Promise<Record<string, unknown>> {
  const user = request.confabAuth.user;
  if (user === undefined) {
    // Nobody uploads anonymously: refuse before reading a byte (PocketBase's failed create rule).
    return Promise.reject(new ConfabServerError('badRequest', 'Failed to create record.'));
  }
  try {
    quota.check(user.id);
  } catch (error) {
    return Promise.reject(error);
  }
  const incoming = incomingDirectory(dataDir);
  mkdirSync(incoming, { recursive: true });
  const staged = (request.stagedUploadPaths ??= []);

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, fieldNameSize: 100 },
      });
    } catch {
      reject(new ConfabServerError('badRequest'));
      return;
    }
    const body: Record<string, unknown> = {};
    const writes: Promise<void>[] = [];
    let failure: unknown;
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = error;
      payload.unpipe(parser);
      payload.resume();
      reject(error);
    };

    parser.on('field', (name, value) => {
      if (forbiddenKeys.has(name) || name === 'file') return;
      body[name] = inferFormValue(value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || failure !== undefined) {
        stream.resume();
        return;
      }
      const path = join(incoming, `${randomBytes(16).toString('hex')}.part`);
      staged.push(path);
      const tap = new CountingTap(uploadMaximumBytes);
      writes.push(
        pipeline(stream, tap, createWriteStream(path, { flags: 'wx', mode: 0o600 })).then(
          () => {
            body['file'] = new StagedUpload(path, info.filename ?? '', tap.size, tap.head);
          },
          (error: unknown) => {
            removeQuietly(path);
            fail(error instanceof ConfabServerError ? error : new ConfabServerError('badRequest'));
          },
        ),
      );
    });
    parser.on('partsLimit', () => fail(new ConfabServerError('badRequest')));
    parser.on('filesLimit', () => fail(new ConfabServerError('badRequest', 'Upload one file per request.')));
    parser.on('error', () => fail(new ConfabServerError('badRequest')));
    parser.on('close', () => {
      void Promise.all(writes).then(() => {
        if (failure === undefined) resolve(body);
      });
    });
    payload.on('aborted', () => fail(new ConfabServerError('badRequest')));
    payload.pipe(parser);
  });
}

/** How long, and how much, a refused upload's remaining body is read after the answer. */
export const lingerLimits = { milliseconds: 2_000, bytes: 16 * 1024 * 1024 };

/**
 * A refused upload (too large, anonymous, invalid) is answered at once, while its body is still
 * arriving. Closing the socket then would reset it and could destroy the answer before the client
 * reads it, so the server goes on reading, and discarding, for a short while (a "lingering
 * close"), then cuts the connection: the client gets its 413 or 400, and the rest of a huge body
 * is never read.
 */
function lingerThenClose(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  const socket = raw.socket;
  let discarded = 0;
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(cut, lingerLimits.milliseconds);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  // After Node's own end-of-response handling, which may drop 'data' listeners to discard the body.
  setImmediate(() => {
    if (raw.complete || raw.destroyed) return;
    raw.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > lingerLimits.bytes) cut();
    });
    raw.resume();
  });
}

/** Removes what an upload request staged and did not hand over, whatever the outcome. */
export function registerUploadCleanup(app: FastifyInstance): void {
  app.decorateRequest('stagedUploadPaths', undefined);
  app.addHook('onResponse', async (request) => {
    for (const path of request.stagedUploadPaths ?? []) removeQuietly(path);
    if (isUploadRequest(request)) lingerThenClose(request);
  });
  app.addHook('onRequestAbort', async (request) => {
    for (const path of request.stagedUploadPaths ?? []) removeQuietly(path);
  });
}
