import type { FastifyInstance } from 'fastify';

/** Headers every answer carries. CORS for the API lives in http/cors.ts. */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
    // Reset links carry their token in the URL; never hand it on as a Referer.
    void reply.header('referrer-policy', 'no-referrer');
  });
}
