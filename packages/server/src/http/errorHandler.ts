import type { FastifyError, FastifyInstance } from 'fastify';
import { ConfabServerError, errorCodes, isOutOfSpace, outOfStorage, type FieldErrors } from '../errors';
import { isDatabaseUnavailable } from '../store/unavailable';

export interface ErrorBody {
  status: number;
  message: string;
  data: FieldErrors;
}

const defaultMessages: Record<number, string> = {
  400: errorCodes.badRequest.message,
  401: errorCodes.unauthorized.message,
  403: errorCodes.forbidden.message,
  404: errorCodes.notFound.message,
  413: errorCodes.payloadTooLarge.message,
  415: 'Unsupported media type.',
  429: 'Too Many Requests.',
};

export const databaseUnavailableText = 'The database is unavailable right now. Please try again in a few seconds.';

/**
 * The one place an error becomes an HTTP answer: `{status, message, data}` as PocketBase sends
 * it. Framework errors (bad JSON, oversized bodies) keep their 4xx status with a generic message;
 * a full disk is a 507 that says so (isOutOfSpace); anything unexpected is a 500 with no detail,
 * so no stack trace or SQL ever reaches a client.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof ConfabServerError) {
    return { status: error.status, message: error.message, data: error.data };
  }
  if (isOutOfSpace(error)) return toErrorBody(outOfStorage());
  // The database stopped or restarting: a clear 503 the client may retry (a send with its
  // client_id is stored once however often it is retried), not a 500 that reads like a bug.
  if (isDatabaseUnavailable(error)) return { status: 503, message: databaseUnavailableText, data: {} };
  const statusCode = (error as Partial<FastifyError> | undefined)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, message: defaultMessages[statusCode] ?? errorCodes.badRequest.message, data: {} };
  }
  return { status: 500, message: errorCodes.internal.message, data: {} };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toErrorBody(error);
    if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    if (body.status === 503) void reply.header('retry-after', '2');
    void reply.code(body.status).type('application/json; charset=utf-8').send(body);
  });
}

export function notFoundBody(): ErrorBody {
  return { status: 404, message: errorCodes.notFound.message, data: {} };
}
