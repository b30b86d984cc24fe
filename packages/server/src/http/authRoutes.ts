import type { FastifyInstance } from 'fastify';
import { ConfabServerError } from '../errors';
import { readString } from '../services/input';
import type { Services } from '../services/index';
import type { UserRow } from '../store/repositories/users';
import { readRecordQuery } from './queryParameters';
import { objectBody } from './recordRoutes';

interface CollectionParams {
  collection: string;
}

/** Only `users` is an auth collection. */
function requireUsers(collection: string): void {
  if (collection !== 'users') throw new ConfabServerError('notFound', 'Missing collection context.');
}

/** PocketBase auth endpoints of the users collection: login, refresh, password reset. */
export function registerAuthRoutes(app: FastifyInstance, services: Services): void {
  const base = '/api/collections/:collection';

  async function authResponse(user: UserRow, ip: string, query: unknown) {
    const auth = { user, ip };
    const record = await services.records.view('users', auth, user.id, readRecordQuery(query));
    return { token: services.accounts.issueToken(user), record };
  }

  app.post<{ Params: CollectionParams }>(`${base}/auth-with-password`, async (request) => {
    requireUsers(request.params.collection);
    const body = objectBody(request);
    const user = await services.accounts.authWithPassword(readString(body, 'identity'), readString(body, 'password'), request.ip);
    return authResponse(user, request.ip, request.query);
  });

  app.post<{ Params: CollectionParams }>(`${base}/auth-refresh`, async (request) => {
    requireUsers(request.params.collection);
    const user = services.accounts.requireUser(request.confabAuth);
    return authResponse(user, request.ip, request.query);
  });

  app.post<{ Params: CollectionParams }>(`${base}/request-password-reset`, async (request, reply) => {
    requireUsers(request.params.collection);
    await services.passwordResets.request(readString(objectBody(request), 'email'), request.ip);
    return reply.code(204).send();
  });

  app.post<{ Params: CollectionParams }>(`${base}/confirm-password-reset`, async (request, reply) => {
    requireUsers(request.params.collection);
    const body = objectBody(request);
    await services.passwordResets.confirm(
      {
        token: readString(body, 'token'),
        password: readString(body, 'password'),
        passwordConfirm: readString(body, 'passwordConfirm'),
      },
      request.ip,
    );
    return reply.code(204).send();
  });
}
