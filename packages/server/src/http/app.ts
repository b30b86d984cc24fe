import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Services } from '../services/index';
import type { AgentRuntime } from '../agents/runtime';
import type { Readiness } from '../operations/readiness';
import { registerAgentRoutes } from './agentRoutes';
import { registerAuthRoutes } from './authRoutes';
import { registerDropRoutes } from './dropRoutes';
import { registerBodyParsers } from './bodyParsers';
import { registerBodyTimeout } from './bodyTimeout';
import { registerChatRoutes } from './chatRoutes';
import { registerCors } from './cors';
import type { RefusedOriginWarnings } from './refusedOrigins';
import { registerErrorHandling } from './errorHandler';
import { registerFileRoutes } from './fileRoutes';
import { registerImageProxyRoutes } from './imageProxyRoutes';
import { registerInvitationRoutes } from './invitationRoutes';
import { registerNotificationRoutes } from './notificationRoutes';
import { registerOperationsRoutes } from './operationsRoutes';
import { registerPackageRoutes } from './packageRoutes';
import { registerReactionRoutes } from './reactionRoutes';
import { registerRecordRoutes } from './recordRoutes';
import { registerRequestAuth } from './requestAuth';
import { registerResponseHeaders } from './responseHeaders';
import { registerStaticHosting } from './staticHosting';
import { registerSystemRoutes } from './systemRoutes';
import { registerUploadCleanup } from './uploadParser';
import { loggerOptions } from './logging';

export async function buildApp(
  config: ServerConfig,
  services: Services,
  agents: AgentRuntime,
  refusedOrigins: RefusedOriginWarnings,
  readiness: Readiness,
): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(config),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // Parameters stay strings; ids are validated by the services.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  registerErrorHandling(app);
  registerResponseHeaders(app);
  registerCors(app, config.allowedOrigins, { publicUrl: config.publicUrl, refusedOrigins });
  registerBodyTimeout(app, config.bodyTimeoutMs);
  registerBodyParsers(app, config.dataDir, services.uploadQuota, config.uploadExtensions);
  registerUploadCleanup(app);
  registerRequestAuth(app, services.accounts);
  // First of the routes: its request counting hook covers every route registered after it.
  registerOperationsRoutes(app, config, services.context.metrics, readiness);
  registerSystemRoutes(app, config, services.context.inboundMail, services.context.agentPools, readiness);
  registerPackageRoutes(app, config);
  registerRecordRoutes(app, services);
  registerAuthRoutes(app, services);
  registerInvitationRoutes(app, services);
  registerAgentRoutes(app, services, agents);
  registerDropRoutes(app, services);
  registerChatRoutes(app, services);
  registerNotificationRoutes(app, services);
  registerReactionRoutes(app, services);
  registerFileRoutes(app, services);
  registerImageProxyRoutes(app, services, config);
  await registerStaticHosting(app, config.webDir);
  return app;
}
