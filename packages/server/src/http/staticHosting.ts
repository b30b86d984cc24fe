import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFoundBody } from './errorHandler';
import { loadIndexPages } from './routePreloads';

/** A year: the longest `max-age` caches honour. Hashed names change whenever the bytes do. */
export const immutableCacheControl = 'public, max-age=31536000, immutable';
/** index.html and everything without a hash in its name: cached, but revalidated on every use. */
export const revalidateCacheControl = 'no-cache';

/**
 * True for Vite's hashed build output, `assets/<name>-<hash>.<ext>` (and its source maps):
 * `assets/index-Bvkr_J5D.css`, `assets/Agents-Bk29-5x8.js.map`.
 */
export function isHashedAsset(relativePath: string): boolean {
  return /^assets\/(?:[^/]+\/)*[^/]*-[\w-]{8,}\.[\w.]+$/.test(relativePath.replace(/\.(?:br|gz)$/, ''));
}

/**
 * Serves the built reference app at / and answers any other non-/api GET with its index.html,
 * so client-side routes (/login, /reset-password?token=…) survive a reload. /api stays JSON.
 *
 * Files go out compressed when the browser accepts it: the `.br` / `.gz` copies written next to
 * them by scripts/bundle-web.mjs when present, else compressed as they are sent. Hashed assets are
 * cached for a year; index.html and other files are revalidated. Compression lives in this
 * plugin's scope only: API answers, file downloads (Range), uploads and the WebSocket upgrade
 * never pass through it. index.html names the JS each route needs (routePreloads.ts) when the
 * build lists them.
 */
export async function registerStaticHosting(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  if (webDir !== undefined && existsSync(join(webDir, 'index.html'))) {
    await app.register(async (scope) => registerWebApp(scope, webDir));
  }
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('application/json; charset=utf-8').send(notFoundBody()));
}

async function registerWebApp(scope: FastifyInstance, webDir: string): Promise<void> {
  const indexPages = loadIndexPages(webDir);
  await scope.register(fastifyCompress, {
    global: true,
    // Request bodies are never inflated here (uploads stream as sent; no decompression bombs).
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 256,
  });
  await scope.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    // '/' is the catch-all's when index.html is sent per route.
    index: indexPages === null ? ['index.html'] : false,
    // One route per file found at start-up, so the catch-all below can answer the rest.
    wildcard: false,
    globIgnore: ['**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      const relativePath = relative(webDir, path).split(sep).join('/');
      response.setHeader('cache-control', isHashedAsset(relativePath) ? immutableCacheControl : revalidateCacheControl);
      response.setHeader('vary', 'accept-encoding');
    },
  });
  scope.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // A missing script or style is a 404, not the app's page (a stale tab asking for an old hash).
    if (path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/')) {
      return reply.code(404).type('application/json; charset=utf-8').send(notFoundBody());
    }
    return indexPages === null ? reply.sendFile('index.html') : sendIndexPage(request, reply, indexPages(path));
  });
}

/** As the file would go: revalidated on every use (here by its ETag) and compressed by the scope's plugin. */
function sendIndexPage(request: FastifyRequest, reply: FastifyReply, page: { html: string; etag: string }) {
  void reply.header('cache-control', revalidateCacheControl).header('vary', 'accept-encoding').header('etag', page.etag);
  if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
  return reply.type('text/html; charset=utf-8').send(page.html);
}
