import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfabServerError, isOutOfSpace, outOfStorage } from '../errors';
import { incomingDirectory, StagedUpload } from '../services/files/storage';
import { makePrivateFolder } from '../store/privateDataDir';
import type { UploadQuota } from '../services/files/uploadQuota';
import { refuseExtension, uploadExtension } from '../services/files/uploadRules';
import { inferFormValue } from './formValues';
import { StagingFile, UploadGate } from './uploadGate';

declare module 'fastify' {
  interface FastifyRequest {
    /** Temporary files of this request; whatever is still there when the answer is sent is removed. */
    stagedUploadPaths: string[] | undefined;
  }
}

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** Only the files collection's create takes uploads; it is streamed, never held in memory. */
export function isUploadRequest(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
  return path === '/api/collections/files/records';
}

/** Reads and drops a file part nobody stores; destroying the parser may end it with an error. */
function discard(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.resume();
}

function removeQuietly(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Counts every byte of an upload's body, whether parsed, refused or discarded after the answer
 * (see lingerThenClose), and charges it to the uploader: a refused upload costs its sender as
 * much allowance as a stored one. `settle` charges what arrived so far; the rest is charged when
 * the body ends or the connection closes.
 */
function meterBody(payload: Readable, charge: (bytes: number) => Promise<void>): { settle(): Promise<void> } {
  let received = 0;
  let charged = 0;
  const settle = async () => {
    const bytes = received - charged;
    charged = received;
    if (bytes > 0) await charge(bytes).catch(() => undefined);
  };
  // Listening for 'data' next to the parser's pipe sees every chunk without taking any away.
  payload.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  payload.once('end', () => void settle());
  payload.once('close', () => void settle());
  return { settle };
}

/**
 * Streams one multipart upload to `<data>/files/.incoming/<random>.part`, checking as it goes:
 * the extension of the part's file name before a byte is written, the content's signature
 * before more than its first bytes are (uploadGate.ts), the 100 MB limit throughout. A refused
 * upload is answered at once (400, or 413) and its partial file removed; the rest of the body is
 * not stored (see lingerThenClose). Every byte received counts against the hourly allowance,
 * stored or not. The parsed body is the form's fields plus `file` as a StagedUpload; the files
 * collection moves it into place or the request's end removes it.
 */
export function parseUpload(dataDir: string, quota: UploadQuota, request: FastifyRequest, payload: Readable, addedExtensions: readonly string[] = []): Promise<Record<string, unknown>> {
  const user = request.confabAuth.user;
  if (user === undefined) {
    // Nobody uploads anonymously: refuse before reading a byte (PocketBase's failed create rule).
    return Promise.reject(new ConfabServerError('badRequest', 'Failed to create record.'));
  }
  return quota.check(user.id).then(() => {
    const meter = meterBody(payload, (bytes) => quota.spend(user.id, bytes));
    return streamUpload(dataDir, request, payload, addedExtensions).then(
      async (body) => {
        await meter.settle();
        return body;
      },
      async (error: unknown) => {
        await meter.settle();
        throw error;
      },
    );
  });
}

function streamUpload(dataDir: string, request: FastifyRequest, payload: Readable, addedExtensions: readonly string[]): Promise<Record<string, unknown>> {
  const incoming = incomingDirectory(dataDir);
  makePrivateFolder(incoming);
  const staged = (request.stagedUploadPaths ??= []);

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        // File names are UTF-8, as browsers and undici send them (busboy's default is latin1).
        defParamCharset: 'utf8',
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
      // Ends the file part in progress, so its temporary file is closed and removed. Not from
      // within the parser's own event (it goes on parsing the chunk at hand).
      process.nextTick(() => parser.destroy());
      reject(error);
    };

    parser.on('field', (name, value) => {
      if (forbiddenKeys.has(name) || name === 'file') return;
      body[name] = inferFormValue(value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || failure !== undefined) {
        discard(stream);
        return;
      }
      const clientName = info.filename ?? '';
      const extension = uploadExtension(clientName);
      const refusal = refuseExtension(extension, addedExtensions);
      if (refusal !== undefined) {
        discard(stream);
        fail(refusal);
        return;
      }
      const path = join(incoming, `${randomBytes(16).toString('hex')}.part`);
      staged.push(path);
      const gate = new UploadGate(extension);
      writes.push(
        pipeline(stream, gate, new StagingFile(path)).then(
          () => {
            body['file'] = new StagedUpload(path, clientName, gate.size, gate.head);
          },
          (error: unknown) => {
            removeQuietly(path);
            fail(error instanceof ConfabServerError ? error : isOutOfSpace(error) ? outOfStorage() : new ConfabServerError('badRequest'));
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
 * reads it, so the server goes on reading, and discarding (and counting, see meterBody), for a
 * short while (a "lingering close"), then cuts the connection: the client gets its 413 or 400,
 * and the rest of a huge body is never read. A body that ends within the limits leaves the
 * connection open for the next request, as any fully read request does.
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
  // Fastify answers a body parser's error with `Connection: close`, since the rest of the body
  // would go unread, and Node then destroys the socket as soon as the answer is written, the
  // body still arriving: the reset may destroy the answer, and what the client still sends is
  // neither read nor counted. An upload's body is read on (lingerThenClose), so the connection
  // may stay open until that ends or is cut.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isUploadRequest(request) && !request.raw.complete && String(reply.getHeader('connection')).toLowerCase() === 'close') {
      reply.removeHeader('connection');
    }
    done(null, payload);
  });
  app.addHook('onResponse', async (request) => {
    for (const path of request.stagedUploadPaths ?? []) removeQuietly(path);
    if (isUploadRequest(request)) lingerThenClose(request);
  });
  app.addHook('onRequestAbort', async (request) => {
    for (const path of request.stagedUploadPaths ?? []) removeQuietly(path);
  });
}
