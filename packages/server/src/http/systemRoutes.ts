import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import type { AgentPoolStatus, InboundMailStatus } from '../services/context';
import type { Readiness } from '../operations/readiness';
import { answerReadiness, asksForReadiness } from './operationsRoutes';

/** The base URL clients should use: the configured public URL, else the request's own host. */
export function baseUrlOf(request: FastifyRequest, config: ServerConfig): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  return `${request.protocol}://${request.host}`;
}

/** The message of /api/health: healthy, and which hosted agents' pools are full. */
function healthMessage(pools: Record<string, AgentPoolStatus>): string {
  const saturated = Object.entries(pools).filter(([, pool]) => pool.saturated);
  if (saturated.length === 0) return 'API is healthy.';
  return `API is healthy, but ${saturated.map(([name, pool]) => `the @${name} agent pool is saturated (${pool.running} running, ${pool.queued} waiting)`).join('; ')}.`;
}

export function registerSystemRoutes(
  app: FastifyInstance,
  config: ServerConfig,
  inboundMail?: InboundMailStatus,
  agentPools: ReadonlyMap<string, () => AgentPoolStatus> = new Map(),
  readiness?: Readiness,
): void {
  // The inbound SMTP listener's state when it is on: a taken port is said here, not by a crash.
  // `browse` when @browse renders pages with headless Chromium (CONFAB_BROWSE_CHROMIUM): Chat
  // Options' browser control info says so. `agents` when hosted agents run jobs in pools (@data):
  // a saturated pool is said in the message too (docs/SECURITY.md O7), while sign-in and the API
  // still answer.
  // Liveness, whatever the dependencies say; `?ready=1` asks for readiness instead (/api/ready).
  app.get('/api/health', async (request, reply) => {
    if (readiness !== undefined && asksForReadiness(request.query)) return answerReadiness(reply, readiness);
    const pools = Object.fromEntries([...agentPools].map(([name, status]) => [name, status()]));
    return {
      message: healthMessage(pools),
      code: 200,
      data: {
        ...(inboundMail === undefined || inboundMail.state === 'off' ? {} : { inbound_smtp: { ...inboundMail } }),
        ...(config.browseChromium === undefined ? {} : { browse: { renders_javascript: true } }),
        ...(agentPools.size === 0 ? {} : { agents: pools }),
      },
    };
  });

  app.get('/api/config', async (request) => {
    const base = new URL(baseUrlOf(request, config));
    const websocket = new URL('/api/ws', base);
    websocket.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    return {
      api_base_url: base.origin,
      websocket_url: websocket.toString(),
      environment: config.environment,
      public_domain: base.host,
      // Compatible addition: the domain of chat and personal inbox addresses.
      mail_domain: config.mailDomain,
      // Compatible addition: image types the operator added to the upload allow-list.
      upload_extensions: config.uploadExtensions,
    };
  });
}
