import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';

/** Product endpoints about one's own membership of a chat; the rules live in services/chatMembership.ts. */
export function registerChatRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: { id: string } }>('/api/chats/:id/leave', async (request, reply) => {
    await services.chatMembership.leave(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });
}
