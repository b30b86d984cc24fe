import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { objectBody } from './recordRoutes';

interface TokenParams {
  token: string;
}

interface IdParams {
  id: string;
}

/** Product endpoints of CONTRACTS "Invitations and onboarding"; the rules live in services/invitations.ts and services/onboarding.ts. */
export function registerInvitationRoutes(app: FastifyInstance, services: Services): void {
  const invitations = services.invitations;

  app.post('/api/invite-to-chat', async (request) => invitations.inviteToChat(request.confabAuth, objectBody(request)));

  // The signed-in user's own pending e-mail invitations (CONTRACTS "Invitations and onboarding").
  app.get('/api/my-invitations', async (request) => invitations.myInvitations(request.confabAuth));

  app.post<{ Params: IdParams }>('/api/my-invitations/:id/accept', async (request) =>
    invitations.acceptMine(request.confabAuth, request.params.id),
  );

  app.post<{ Params: IdParams }>('/api/my-invitations/:id/decline', async (request, reply) => {
    await invitations.declineMine(request.confabAuth, request.params.id);
    return reply.code(204).send();
  });

  app.get<{ Params: TokenParams }>('/api/invitation/:token', async (request) => invitations.viewInvitation(request.params.token));

  app.get<{ Params: TokenParams; Querystring: { chat_id?: string } }>('/api/accept-invitation/:token', async (request, reply) => {
    const chatId = await invitations.acceptAsUser(request.confabAuth, request.params.token, request.query.chat_id);
    return reply.code(302).header('location', `/chat/${chatId}`).send();
  });

  app.post<{ Params: TokenParams }>('/api/accept-invitation/:token', async (request) =>
    invitations.acceptAsNewUser(request.params.token, objectBody(request), request.ip),
  );

  app.post<{ Params: { chatId: string } }>('/api/create-share-link/:chatId', async (request) =>
    invitations.createShareLink(request.confabAuth, request.params.chatId, objectBody(request)),
  );

  app.get<{ Params: { query: string } }>('/api/search-users/:query', async (request) =>
    services.onboarding.searchUsers(request.confabAuth, request.params.query),
  );

  app.post('/api/complete-account', async (request) => services.onboarding.completeAccount(request.confabAuth, objectBody(request)));
}
