import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfabServerError } from '../errors';
import type { Body } from '../services/input';
import type { Services } from '../services/index';
import { readListQuery, readRecordQuery } from './queryParameters';

interface CollectionParams {
  collection: string;
}

interface RecordParams extends CollectionParams {
  id: string;
}

/** Write routes need an object body; arrays and primitives are a 400. */
export function objectBody(request: FastifyRequest): Body {
  const body = request.body ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ConfabServerError('badRequest');
  return body as Body;
}

/** The PocketBase record API: /api/collections/{collection}/records[/{id}]. */
export function registerRecordRoutes(app: FastifyInstance, services: Services): void {
  const records = services.records;
  const base = '/api/collections/:collection/records';

  app.get<{ Params: CollectionParams }>(base, async (request) =>
    records.list(request.params.collection, request.confabAuth, readListQuery(request.query)),
  );

  app.get<{ Params: RecordParams }>(`${base}/:id`, async (request) =>
    records.view(request.params.collection, request.confabAuth, request.params.id, readRecordQuery(request.query)),
  );

  app.post<{ Params: CollectionParams }>(base, async (request) =>
    records.create(request.params.collection, request.confabAuth, objectBody(request), readRecordQuery(request.query)),
  );

  app.patch<{ Params: RecordParams }>(`${base}/:id`, async (request) =>
    records.update(
      request.params.collection,
      request.confabAuth,
      request.params.id,
      objectBody(request),
      readRecordQuery(request.query),
    ),
  );

  app.delete<{ Params: RecordParams }>(`${base}/:id`, async (request, reply) => {
    await records.delete(request.params.collection, request.confabAuth, request.params.id);
    return reply.code(204).send();
  });
}
