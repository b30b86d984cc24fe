import type { FastifyInstance, FastifyRequest } from 'fastify';

/** True when the request announces a body: chunks, or a length above zero. */
function announcesBody(request: FastifyRequest): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(request.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * Closes the connection of a request whose body makes no progress for `bodyTimeoutMs`.
 *
 * Node bounds the headers (headersTimeout) and, when enabled, the whole request
 * (requestTimeout, off in Fastify), but nothing bounds a body that simply stops: one that sent
 * 10 of 100 announced bytes held its connection, and an upload its `files/.incoming` file, for
 * minutes. While such a body is being received its socket gets an idle timeout; every byte read
 * (or written) restarts it, so a slow but steady body is never cut. When it fires, Node's HTTP
 * server destroys the socket (`socketOnTimeout`: nobody else listens for 'timeout'), the
 * request is aborted, and the upload parser and `onRequestAbort` remove what was staged.
 *
 * Once the body has been read the server's own setting is restored, so a handler may take its
 * time and keep-alive idling keeps Node's keepAliveTimeout (set when the answer is finished, which
 * this never overrides). Requests without a body, WebSocket upgrades (never routed here) and
 * bodies that arrived whole with their headers are left alone. Listening for 'end' (not 'data')
 * leaves the body to its parser.
 *
 * @example registerBodyTimeout(app, 30_000)
 */
export function registerBodyTimeout(app: FastifyInstance, bodyTimeoutMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket as (typeof raw.socket & { timeout?: number }) | undefined;
    if (raw.complete || !announcesBody(request) || typeof socket?.setTimeout !== 'function') {
      done();
      return;
    }
    socket.setTimeout(bodyTimeoutMs);
    raw.once('end', () => {
      // After the answer Node has set the keep-alive timeout: leave that one in place.
      if (reply.raw.writableEnded || socket.destroyed || socket.timeout !== bodyTimeoutMs) return;
      socket.setTimeout(app.server.timeout);
    });
    done();
  });
}
