import type { FastifyInstance, FastifyRequest } from 'fastify';
import { originAllowed } from '../realtime/upgrade';
import type { RefusedOriginWarnings } from './refusedOrigins';

/** What a page on a listed origin may send; the SDKs use no other methods or request headers. */
const corsAllowedMethods = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
const corsAllowedHeaders = 'Authorization, Content-Type, Accept-Language';
/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
const corsMaxAgeSeconds = 7200;

/**
 * CORS for the API: a page on one of `allowedOrigins` (CONFAB_ALLOWED_ORIGINS, the same list that
 * may open the WebSocket) may call /api/* from the browser, as an embedding site does with
 * @confab/client. The answer names that origin, never `*`, and says `Vary: Origin`, so a cache
 * never hands one origin's answer to another. Other origins get no CORS headers, so the browser
 * keeps their pages from reading the answers. Auth travels in the Authorization header, never in
 * cookies, so no Access-Control-Allow-Credentials is needed or sent.
 *
 * Preflights (OPTIONS with Access-Control-Request-Method) under /api are answered here with 204,
 * for any origin; only a listed origin's answer carries the headers that let the request through.
 * A refused origin is named once in a warning (`refusedOrigins`); the server's own pages, which
 * send Origin on POSTs too, are not refused.
 *
 * @example
 * registerCors(app, ['https://shop.example'], { publicUrl: undefined, refusedOrigins });
 * // OPTIONS /api/collections/chats/records, Origin: https://shop.example
 * // → 204, Access-Control-Allow-Origin: https://shop.example, Vary: Origin
 */
export function registerCors(
  app: FastifyInstance,
  allowedOrigins: readonly string[],
  options: { publicUrl: string | undefined; refusedOrigins: RefusedOriginWarnings },
): void {
  const listed = new Set(allowedOrigins);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    // Every API answer depends on Origin, whether or not this one carried it.
    void reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    const allowed = origin !== undefined && listed.has(origin);
    if (allowed) void reply.header('access-control-allow-origin', origin);
    else if (origin !== undefined && !ownOrigin(request, origin, options.publicUrl)) options.refusedOrigins.note(origin);
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return;
    if (allowed) {
      void reply
        .header('access-control-allow-methods', corsAllowedMethods)
        .header('access-control-allow-headers', corsAllowedHeaders)
        .header('access-control-max-age', String(corsMaxAgeSeconds));
    }
    await reply.code(204).send();
  });
}

/** The server's own pages (by the browser's word, the Host it was reached at, or the public URL). */
function ownOrigin(request: FastifyRequest, origin: string, publicUrl: string | undefined): boolean {
  if (request.headers['sec-fetch-site'] === 'same-origin') return true;
  if (originAllowed(request.raw, [], publicUrl)) return true;
  try {
    // Behind a proxy (trustProxy) the host the browser used is X-Forwarded-Host.
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}
