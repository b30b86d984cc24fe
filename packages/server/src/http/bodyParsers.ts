import type { FastifyInstance } from 'fastify';
import { ConfabServerError } from '../errors';
import type { UploadQuota } from '../services/files/uploadQuota';
import { inferFormValue } from './formValues';
import { isUploadRequest, parseUpload } from './uploadParser';

/** Multipart forms other than uploads (which stream, see uploadParser.ts) stay small. */
export const multipartBodyLimitBytes = 1024 * 1024;
export const jsonBodyLimitBytes = 1024 * 1024;

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text, (key, value: unknown) => (forbiddenKeys.has(key) ? undefined : value));
  } catch {
    throw new ConfabServerError('badRequest');
  }
}

function collectForm(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let jsonPayload: unknown;
  for (const [key, raw] of entries) {
    if (forbiddenKeys.has(key)) continue;
    if (key === '@jsonPayload' && typeof raw === 'string') {
      jsonPayload = parseJsonBody(raw);
      continue;
    }
    const value = typeof raw === 'string' ? inferFormValue(raw) : raw;
    const existing = body[key];
    if (existing === undefined) body[key] = value;
    else body[key] = Array.isArray(existing) ? [...(existing as unknown[]), value] : [existing, value];
  }
  if (typeof jsonPayload === 'object' && jsonPayload !== null && !Array.isArray(jsonPayload)) {
    Object.assign(body, jsonPayload);
  }
  return body;
}

/** JSON (an empty body counts as `{}`), multipart with `@jsonPayload`, and urlencoded bodies. */
/** `addedExtensions`: the image types the operator added to the upload allow-list (config uploadExtensions). */
export function registerBodyParsers(app: FastifyInstance, dataDir: string, uploadQuota: UploadQuota, addedExtensions: readonly string[] = []): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: jsonBodyLimitBytes }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: jsonBodyLimitBytes }, (_request, body, done) => {
    done(null, collectForm(new URLSearchParams(body as string).entries()));
  });
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if (isUploadRequest(request)) {
      parseUpload(dataDir, uploadQuota, request, payload, addedExtensions).then(
        (body) => done(null, body),
        (error: unknown) => done(error as Error, undefined),
      );
      return;
    }
    // Other multipart bodies are small forms: read them whole, within a limit, and let the
    // platform's own parser (undici) take them apart.
    readLimited(payload, multipartBodyLimitBytes).then(
      (buffer) => {
        const contentType = request.headers['content-type'] ?? '';
        new Response(buffer as unknown as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } })
          .formData()
          .then((form) => done(null, collectForm(form.entries())))
          .catch(() => done(new ConfabServerError('badRequest'), undefined));
      },
      (error: unknown) => done(error as Error, undefined),
    );
  });
}

function readLimited(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.removeAllListeners('data');
        stream.resume();
        reject(new ConfabServerError('payloadTooLarge'));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    stream.on('error', () => reject(new ConfabServerError('badRequest')));
  });
}
