import type { ServerConfig } from '../config';
import { clusterNamespace } from '../config';
import type { Services } from '../services/index';
import { MemoryPresence, RedisPresence, type AgentPresence } from './presence';
import { MentionRouter } from './router';
import { AgentRuntime } from './runtime';
import type { AiGateway } from './ai/types';
import { createDropsAgent } from './hosted/drops';
import { inProcessReply, type HostedAgentHandler } from './transports/inProcess';

export type { AgentRuntime } from './runtime';
export type { HostedAgentHandler, InProcessReply } from './transports/inProcess';

/** Presence in memory for one instance, in Redis when instances share REDIS_URL. */
export function createPresence(config: ServerConfig, onError: (error: unknown) => void): AgentPresence {
  return config.redisUrl === undefined ? new MemoryPresence() : new RedisPresence(config.redisUrl, clusterNamespace(config.secret), onError);
}

/**
 * The agent runtime with its router listening to every stored message, and the hosted agents'
 * handlers on the in-process transport.
 */
export function createAgentRuntime(
  services: Services,
  presence: AgentPresence,
  hosted: Record<string, HostedAgentHandler> = {},
  ai?: AiGateway,
): AgentRuntime {
  const runtime = new AgentRuntime(services, presence);
  const router = new MentionRouter(services, runtime);
  services.messaging.onPosted((posted) => router.route(posted));
  const logger = services.context.logger;
  // The built-in hosted agents' handlers; an embedder's `hosted` of the same username wins.
  const builtIn: Record<string, HostedAgentHandler> = { drops: createDropsAgent(services, ai) };
  for (const [username, handler] of Object.entries({ ...builtIn, ...hosted })) {
    runtime.registerHosted(username, async (mention, agent) => {
      const onError = (error: unknown) => logger.error({ error: String(error), agent: agent.username }, 'hosted agent reply failed');
      await handler(mention, inProcessReply(runtime, agent, mention, onError));
    });
  }
  return runtime;
}
