import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFoundBody } from './errorHandler';

/**
 * Serves the built reference app at / and answers any other non-/api GET with its index.html,
 * so client-side routes (/login, /reset-password?token=…) survive a reload. /api stays JSON.
 */
export async function registerStaticHosting(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  const hasApp = webDir !== undefined && existsSync(join(webDir, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, { root: webDir, prefix: '/', index: ['index.html'], wildcard: true });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api');
    if (hasApp && isPageRequest) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).type('application/json; charset=utf-8').send(notFoundBody());
  });
}
