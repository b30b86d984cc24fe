import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { MetricsAllowEntry, ServerConfig } from '../config';
import type { ServerMetrics } from '../operations/metrics';
import type { Readiness } from '../operations/readiness';
import { notFoundBody } from './errorHandler';

/**
 * What an operator watches (docs/OPERATIONS.md): /api/ready (also /api/health?ready=1), and
 * /metrics in the Prometheus text format, for a bearer token or allow-listed addresses only.
 */
export function registerOperationsRoutes(app: FastifyInstance, config: ServerConfig, metrics: ServerMetrics, readiness: Readiness): void {
  app.get('/api/ready', (_request, reply) => answerReadiness(reply, readiness));

  const metricsOn = config.metricsToken !== undefined || config.metricsAllow.length > 0;
  // Registered either way: unregistered, the web app's catch-all would answer /metrics with its page.
  app.get('/metrics', async (request, reply) => {
    const access = metricsOn ? metricsAccess(request, config) : 'hidden';
    if (access === 'hidden') return reply.code(404).type('application/json; charset=utf-8').send(notFoundBody());
    if (access === 'wrong-token') {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('application/json; charset=utf-8')
        .send({ status: 401, message: 'The metrics token is wrong: send Authorization: Bearer <CONFAB_METRICS_TOKEN>.', data: {} });
    }
    const { contentType, body } = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
  if (!metricsOn) return;

  metrics.collectProcessMetrics();
  // Counted only while /metrics is on: every other request pays nothing for it.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: routeLabel(request.routeOptions.url), status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

/** `?ready=1` (or `true`) on /api/health asks for the readiness answer instead. */
export function asksForReadiness(query: unknown): boolean {
  const ready = (query as Record<string, unknown> | undefined)?.['ready'];
  return typeof ready === 'string' && ['1', 'true', 'yes'].includes(ready.toLowerCase());
}

export async function answerReadiness(reply: FastifyReply, readiness: Readiness): Promise<FastifyReply> {
  const answer = await readiness.check();
  return reply.code(answer.code).header('cache-control', 'no-store').send(answer);
}

/**
 * The route pattern, never the URL (its ids would make a series per chat). The web app's files
 * and its catch-all are one `web` route: their names change with every build.
 */
function routeLabel(pattern: string | undefined): string {
  if (pattern === undefined || pattern === '') return 'unmatched';
  if (pattern === '/metrics' || pattern === '/api' || pattern.startsWith('/api/') || pattern.startsWith('/live/')) return pattern;
  return 'web';
}

/**
 * `allowed` for an allow-listed peer or the right token; `wrong-token` when a bearer token was
 * sent and is not the one (a scraper misconfigured, told so); `hidden` (404) otherwise, so the
 * endpoint is not advertised to anyone else.
 */
function metricsAccess(request: FastifyRequest, config: ServerConfig): 'allowed' | 'wrong-token' | 'hidden' {
  // The TCP peer, never X-Forwarded-For: with CONFAB_TRUST_PROXY a client could name any address there.
  if (peerAllowed(request.raw.socket.remoteAddress, config.metricsAllow)) return 'allowed';
  const header = request.headers.authorization;
  if (config.metricsToken === undefined || header === undefined) return 'hidden';
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (match !== null && sameSecret(match[1] ?? '', config.metricsToken)) return 'allowed';
  return 'wrong-token';
}

function peerAllowed(remoteAddress: string | undefined, allowed: readonly MetricsAllowEntry[]): boolean {
  if (remoteAddress === undefined || allowed.length === 0 || !ipaddr.isValid(remoteAddress)) return false;
  // `::ffff:10.1.2.3` (a dual-stack listener's IPv4 peer) is matched as 10.1.2.3.
  const address = ipaddr.process(remoteAddress);
  return allowed.some(({ range }) => range[0].kind() === address.kind() && address.match(range));
}

/** Compared in constant time, over digests so the lengths are equal. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
