import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import type { InboundMailStatus } from '../services/context';

/** The base URL clients should use: the configured public URL, else the request's own host. */
export function baseUrlOf(request: FastifyRequest, config: ServerConfig): string {
  if (config.publicUrl !== undefined) return config.publicUrl;
  return `${request.protocol}://${request.host}`;
}

export function registerSystemRoutes(app: FastifyInstance, config: ServerConfig, inboundMail?: InboundMailStatus): void {
  // The inbound SMTP listener's state when it is on: a taken port is said here, not by a crash.
  // `browse` when @browse renders pages with headless Chromium (CONFAB_BROWSE_CHROMIUM): Chat
  // Options' browser control info says so.
  app.get('/api/health', async () => ({
    message: 'API is healthy.',
    code: 200,
    data: {
      ...(inboundMail === undefined || inboundMail.state === 'off' ? {} : { inbound_smtp: { ...inboundMail } }),
      ...(config.browseChromium === undefined ? {} : { browse: { renders_javascript: true } }),
    },
  }));

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
    };
  });
}
