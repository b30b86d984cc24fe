import type { FastifyInstance } from 'fastify';
import type { ChatReadState } from '@confab/client/protocol';
import type { Services } from '../services/index';
import { objectBody } from './recordRoutes';

/**
 * Product endpoints about one's own membership of a chat: leaving (services/chatMembership.ts),
 * and one's read position and mute (services/reads.ts; docs/CONTRACTS.md, Unread state).
 */
export function registerChatRoutes(app: FastifyInstance, services: Services): void {
  app.post<{ Params: { id: string } }>('/api/chats/:id/leave', async (request, reply) => {
    await services.chatMembership.leave(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>('/api/chats/:id/read', async (request): Promise<ChatReadState> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return services.reads.markRead(user, request.params.id, objectBody(request)['seq']);
  });

  app.post<{ Params: { id: string } }>('/api/chats/:id/mute', async (request): Promise<ChatReadState> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return services.reads.setMuted(user, request.params.id, objectBody(request)['muted']);
  });
}
