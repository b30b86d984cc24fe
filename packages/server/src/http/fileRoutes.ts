import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConfabServerError } from '../errors';
import type { ServableFile } from '../services/files/fileAccess';
import type { FileStore } from '../services/files/fileStore';
import type { Services } from '../services/index';

/** Types a browser may show in place: media and PDF. Everything else downloads. */
function isInlineSafe(mimeType: string): boolean {
  if (mimeType === 'image/svg+xml') return false;
  return mimeType.startsWith('audio/') || mimeType.startsWith('video/') || mimeType.startsWith('image/') || mimeType === 'application/pdf';
}

/** `attachment; filename="report.pdf"; filename*=UTF-8''r%C3%A9port.pdf`, quotes and controls removed. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A single `bytes=a-b` range within `size`, 'unsatisfiable', or undefined for the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return undefined;
  let start: number;
  let end: number;
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(startText);
    end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

interface SendOptions {
  disposition: 'inline' | 'attachment';
  contentSecurityPolicy: string;
}

/**
 * Streams stored bytes with Range support; the headers never let a browser sniff or run them on
 * our origin. HEAD answers the same headers, content-length included, without reading the file.
 * The bytes come from the file store (disk or bucket) a range at a time, never whole into memory.
 */
async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, files: FileStore, file: ServableFile, options: SendOptions) {
  const size = Number(file.row.size);
  const mimeType = file.row.mime_type || 'application/octet-stream';
  const range = parseRange(request.headers.range, size);
  const { start, end } = range === undefined || range === 'unsatisfiable' ? { start: 0, end: size - 1 } : range;
  // Opened before any header is set: a store that fails (a 503) or lost the file (404) answers
  // with its own error, not with half of this answer's headers.
  const body = request.method === 'HEAD' || size === 0 || range === 'unsatisfiable' ? undefined : await files.get(file.key, { start, end });
  if (body === undefined && request.method !== 'HEAD' && size > 0 && range !== 'unsatisfiable') throw new ConfabServerError('notFound');
  void reply
    .header('content-type', mimeType.startsWith('text/') || mimeType === 'application/json' ? `${mimeType}; charset=utf-8` : mimeType)
    .header('content-disposition', contentDisposition(options.disposition, file.row.original_name || file.row.file))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', options.contentSecurityPolicy)
    .header('cache-control', 'private, no-cache')
    .header('accept-ranges', 'bytes');
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).send();
  }
  if (range !== undefined) void reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  void reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
  return body === undefined ? reply.send() : reply.send(body);
}

/** Served files never run on the app's origin: no scripts, no plugins, an opaque origin. */
const downloadPolicy = "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";
/** The live website runs its scripts, but sandboxed into an opaque origin: no app storage, no API session. */
const liveSitePolicy = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

const notFoundPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>This page does not exist.</p></body></html>';

function sendNotFoundPage(reply: FastifyReply) {
  return reply.code(404).header('content-security-policy', "sandbox; default-src 'none'").header('cache-control', 'no-store').type('text/html; charset=utf-8').send(notFoundPage);
}

function queryToken(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.['token'];
  return typeof value === 'string' ? value : undefined;
}

/** File downloads (PocketBase's /api/files) and each chat's live website (/live/{chat id}/). */
export function registerFileRoutes(app: FastifyInstance, services: Services): void {
  const access = services.fileAccess;

  app.post('/api/files/token', async (request) => access.fileToken(request.confabAuth));

  const download = async (request: FastifyRequest<{ Params: { collection: string; recordId: string; fileName: string }; Querystring: { download?: string; token?: string } }>, reply: FastifyReply) => {
    const { collection, recordId, fileName } = request.params;
    const file = await access.download(request.confabAuth, request.query.token, collection, recordId, fileName);
    const forced = request.query.download !== undefined && request.query.download !== '' && request.query.download !== '0' && request.query.download !== 'false';
    const disposition = !forced && isInlineSafe(file.row.mime_type) ? 'inline' : 'attachment';
    return sendStoredFile(request, reply, services.context.files, file, { disposition, contentSecurityPolicy: downloadPolicy });
  };
  // GET and HEAD declared together: Fastify's automatic HEAD route would rewrite our
  // content-length to 0 for a reply without a body.
  const getAndHead: ['GET', 'HEAD'] = ['GET', 'HEAD'];
  app.route({ method: getAndHead, url: '/api/files/:collection/:recordId/:fileName', handler: download });

  // /live/{chat}/?token=… → /live/{chat}/~{capability}/ ; the capability then authorises every page and asset.
  app.get<{ Params: { chatId: string } }>('/live/:chatId', async (request, reply) => {
    try {
      const capability = await access.openLiveSite(request.params.chatId, queryToken(request));
      return reply.code(302).header('cache-control', 'no-store').header('location', `/live/${request.params.chatId}/${capability}/`).send();
    } catch (error) {
      if (error instanceof ConfabServerError && error.code === 'notFound') return sendNotFoundPage(reply);
      throw error;
    }
  });

  const liveFile = async (request: FastifyRequest<{ Params: { chatId: string; capability: string; '*'?: string } }>, reply: FastifyReply) => {
    const { chatId, capability } = request.params;
    const rawPath = request.url.split('?')[0] ?? '';
    // Relative links in the site resolve against the folder: /live/x/~cap needs its slash.
    if (request.params['*'] === undefined && !rawPath.endsWith('/')) {
      return reply.code(301).header('location', `${rawPath}/`).send();
    }
    try {
      const file = await access.liveSiteFile(chatId, capability, request.params['*'] ?? '');
      return await sendStoredFile(request, reply, services.context.files, file, { disposition: 'inline', contentSecurityPolicy: liveSitePolicy });
    } catch (error) {
      if (error instanceof ConfabServerError && error.code === 'notFound') return sendNotFoundPage(reply);
      throw error;
    }
  };
  app.route({ method: getAndHead, url: '/live/:chatId/:capability', handler: liveFile });
  app.route({ method: getAndHead, url: '/live/:chatId/:capability/*', handler: liveFile });
}
