import type { FastifyInstance } from 'fastify';
import type { ChatPresenceAnswer, ChatReadState } from '@confab/client/protocol';
import type { Services } from '../services/index';
import { objectBody } from './recordRoutes';

/**
 * Product endpoints about one's own membership of a chat: leaving (services/chatMembership.ts),
 * one's read position and mute (services/reads.ts; docs/CONTRACTS.md, Unread state), and who of
 * the chat is online (services/presence.ts; docs/CONTRACTS.md, Typing and presence).
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

  app.get<{ Params: { id: string } }>('/api/chats/:id/presence', async (request): Promise<ChatPresenceAnswer> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return services.presence.onlineIn(user, request.params.id);
  });
}
