import type { FastifyInstance } from 'fastify';
import type { FeedKind } from '../services/drops';
import type { Services } from '../services/index';
import { objectBody } from './recordRoutes';

interface IdParams {
  id: string;
}

/** The drops, discover and follow endpoints of docs/PRODUCT.md §7 (docs/CONTRACTS.md "Drops"); rules in services/drops.ts. */
export function registerDropRoutes(app: FastifyInstance, services: Services): void {
  const drops = services.drops;
  const feeds: Record<string, FeedKind> = { feed: 'feed', trending: 'trending', discover: 'discover', bookmarks: 'bookmarks' };
  for (const [path, kind] of Object.entries(feeds)) {
    app.get(`/api/drops/${path}`, async (request) => drops.feed(request.confabAuth, kind, (request.query ?? {}) as Record<string, unknown>));
  }
  app.get('/api/drops/notifications', async (request) => drops.notifications(request.confabAuth));
  app.post('/api/drops/notifications/read', async (request, reply) => {
    await drops.markNotificationsRead(request.confabAuth);
    return reply.code(204).send();
  });
  app.get<{ Params: IdParams }>('/api/drops/chat/:id', async (request) => drops.chatDrops(request.confabAuth, request.params.id));
  app.post('/api/drops', async (request) => drops.create(request.confabAuth, objectBody(request)));
  app.get<{ Params: IdParams }>('/api/drops/:id', async (request) => drops.get(request.confabAuth, request.params.id));
  app.delete<{ Params: IdParams }>('/api/drops/:id', async (request, reply) => {
    await drops.remove(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });
  app.post<{ Params: IdParams }>('/api/drops/:id/like', async (request) => drops.toggleLike(request.confabAuth, request.params.id));
  app.post<{ Params: IdParams }>('/api/drops/:id/bookmark', async (request) => drops.toggleBookmark(request.confabAuth, request.params.id));
  app.get('/api/discover/chats', async (request) => drops.discoverChats(request.confabAuth));
  app.post<{ Params: IdParams }>('/api/follow/:id', async (request) => drops.follow(request.confabAuth, request.params.id, true));
  app.delete<{ Params: IdParams }>('/api/follow/:id', async (request) => drops.follow(request.confabAuth, request.params.id, false));
}
