import type { FastifyInstance } from 'fastify';
import type { ReactionsAnswer } from '@confab/client/protocol';
import type { Services } from '../services/index';

/**
 * Reactions (docs/CONTRACTS.md, Reactions): PUT adds the caller's reaction, DELETE removes it;
 * both are idempotent and answer the message's summary after the call. The emoji is one path
 * segment, percent-encoded (`/api/messages/{id}/reactions/%F0%9F%91%8D`).
 */
export function registerReactionRoutes(app: FastifyInstance, services: Services): void {
  type Route = { Params: { id: string; emoji: string } };

  app.put<Route>('/api/messages/:id/reactions/:emoji', async (request): Promise<ReactionsAnswer> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return (await services.reactions.change(user, request.params.id, request.params.emoji, true)).answer;
  });

  app.delete<Route>('/api/messages/:id/reactions/:emoji', async (request): Promise<ReactionsAnswer> => {
    const user = services.accounts.requireUser(request.confabAuth);
    return (await services.reactions.change(user, request.params.id, request.params.emoji, false)).answer;
  });
}
