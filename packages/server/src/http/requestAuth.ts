import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountsService } from '../services/accounts';
import type { RequestAuth } from '../services/context';

declare module 'fastify' {
  interface FastifyRequest {
    confabAuth: RequestAuth;
  }
}

/** The SDK sends the raw JWT; other clients send `Bearer <jwt>`. Both are accepted. */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  const token = /^bearer\s+/i.test(trimmed) ? trimmed.replace(/^bearer\s+/i, '') : trimmed;
  return token === '' ? undefined : token;
}

/**
 * Resolves the caller before every /api route. A missing, invalid, expired or revoked token
 * means "guest", never an error: routes that need a user decide that themselves.
 */
export function registerRequestAuth(app: FastifyInstance, accounts: AccountsService): void {
  app.decorateRequest('confabAuth', undefined as unknown as RequestAuth);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.confabAuth = { user: undefined, ip: request.ip };
    if (!request.url.startsWith('/api/')) return;
    const token = tokenFromHeader(request.headers.authorization);
    if (token === undefined) return;
    request.confabAuth = { user: await accounts.authenticate(token), ip: request.ip };
  });
}
