import type { FastifyInstance } from 'fastify';

/**
 * Headers every answer carries, and CORS for the API. Auth travels in the Authorization header,
 * never in cookies, so any origin may call the API (as PocketBase allows by default): embedding
 * sites use the SDK from their own origin.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
    // Reset links carry their token in the URL; never hand it on as a Referer.
    void reply.header('referrer-policy', 'no-referrer');
    if (!request.url.startsWith('/api/')) return;
    void reply.header('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      await reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS')
        .header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? 'authorization, content-type')
        .header('access-control-max-age', '86400')
        .send();
    }
  });
}
