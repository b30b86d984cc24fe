import { join } from 'node:path';
import type { Mention } from '@confab/client/protocol';
import type { ServerConfig } from '../config';
import { clusterNamespace } from '../config';
import type { FileStore } from '../services/files/fileStore';
import type { Services } from '../services/index';
import type { UserRow } from '../store/repositories/users';
import { hostedAllowance } from './allowance';
import { MemoryPresence, RedisPresence, type AgentPresence } from './presence';
import { MentionRouter } from './router';
import { AgentRuntime } from './runtime';
import type { AiGateway } from './ai/types';
import { ProviderGateway } from './ai/gateway';
import { comingSoonPersonas } from './hosted/builtIns';
import { createBrowseAgent } from './hosted/browse';
import { createDataAgent } from './hosted/data';
import { DataJobs } from './hosted/dataJobs';
import { createDeepAgent } from './hosted/deep';
import { createDropsAgent } from './hosted/drops';
import { createEmailAgent } from './hosted/email';
import { personaHandler, type PersonaDependencies } from './hosted/persona';
import { ChromiumRenderer } from './tools/chromium';
import { inProcessReply, type HostedAgentHandler } from './transports/inProcess';

export type { AgentRuntime } from './runtime';
export type { HostedAgentHandler, InProcessReply } from './transports/inProcess';

/** Presence in memory for one instance, in Redis when instances share REDIS_URL. */
export function createPresence(config: ServerConfig, onError: (error: unknown) => void): AgentPresence {
  return config.redisUrl === undefined ? new MemoryPresence() : new RedisPresence(config.redisUrl, clusterNamespace(config.secret), onError, config.presenceTtlMs);
}

/**
 * @data's job queue from the server's settings: each job a process of its own, working in a folder
 * under the data dir (docs/SECURITY.md H11, H12), where files in a bucket are fetched to.
 */
export function createDataJobs(config: ServerConfig, files: FileStore): DataJobs {
  return new DataJobs(
    { running: config.dataJobs, perChat: config.dataJobsPerChat, perUser: config.dataJobsPerUser, waiting: 4 * config.dataJobs, deadlineMs: config.dataJobTimeoutMs },
    { memoryMb: config.dataMemoryMegabytes, spillMb: config.dataSpillMegabytes, root: join(config.dataDir, 'tmp', 'data-jobs'), files },
  );
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
  // Personas (admin-made confab agents, and @email, @deep, @browse until their tools arrive) answer through the AI gateway.
  const gateway = ai ?? new ProviderGateway(services.context);
  // @data: SQL over the chat's files with no key; questions in words through the gateway. Its
  // jobs run in processes of their own, a few at a time; /api/health says when they are all busy.
  const dataJobs = createDataJobs(services.context.config, services.context.files);
  runtime.onClose(() => dataJobs.close());
  services.context.agentPools.set('data', () => dataJobs.status());
  builtIn['data'] = createDataAgent(services, dataJobs, gateway);
  // @deep: web search (SearXNG, Brave) and the chat's workspace, with a report when a key can pay.
  builtIn['deep'] = createDeepAgent(services, gateway);
  // @browse: one page through the guarded fetcher (rendered by headless Chromium, behind the same
  // guard, when CONFAB_BROWSE_CHROMIUM is set); its links and tables; a summary or answer when a key can pay.
  const chromiumPath = services.context.config.browseChromium;
  const renderer = chromiumPath === undefined ? undefined : new ChromiumRenderer({ executablePath: chromiumPath, allowHosts: services.context.config.fetchAllowHosts });
  if (renderer !== undefined) runtime.onClose(() => renderer.close());
  builtIn['browse'] = createBrowseAgent(services, gateway, renderer);
  const personaDependencies = (agentUsername: string, onError: (error: unknown) => void): PersonaDependencies => ({
    gateway,
    onError,
    noticeInvoker: (mention, text) =>
      runtime.toUser(mention.author_id, { type: 'agent_notice', chat_id: mention.chat_id, message_id: mention.message_id, agent_username: agentUsername, reason: 'not_available', text }),
  });
  // @email: received mail listed, drafts sent from the chat's address only when their asker confirms; other talk goes to the Email persona.
  const emailPersona = { username: 'email', name: 'Email', description: 'Sends and manages e-mails' };
  builtIn['email'] = createEmailAgent(services, gateway, (mention, reply) => {
    const onError = (error: unknown) => logger.error({ error: String(error), agent: 'email' }, 'hosted agent reply failed');
    return personaHandler(emailPersona, personaDependencies('email', onError))(mention, reply);
  });
  for (const persona of comingSoonPersonas()) {
    builtIn[persona.username] ??= (mention, reply) => {
      const onError = (error: unknown) => logger.error({ error: String(error), agent: persona.username }, 'hosted agent reply failed');
      return personaHandler(persona, personaDependencies(persona.username, onError))(mention, reply);
    };
  }
  // Every hosted answer costs the server something: each person and chat has an hourly allowance.
  const allowance = hostedAllowance(services);
  const admitted = async (mention: Mention, agent: UserRow): Promise<boolean> => {
    const refusal = await allowance(mention);
    if (refusal === undefined) return true;
    await runtime.toUser(mention.author_id, { type: 'agent_notice', chat_id: mention.chat_id, message_id: mention.message_id, agent_username: agent.username, reason: 'not_available', text: refusal });
    return false;
  };
  for (const [username, handler] of Object.entries({ ...builtIn, ...hosted })) {
    runtime.registerHosted(username, async (mention, agent) => {
      if (!(await admitted(mention, agent))) return;
      const onError = (error: unknown) => logger.error({ error: String(error), agent: agent.username }, 'hosted agent reply failed');
      await handler(mention, inProcessReply(runtime, agent, mention, onError));
    });
  }
  // Every other confab agent is an admin-made persona: its description is its system prompt.
  runtime.registerHostedFallback(async (mention, agent) => {
    if (!(await admitted(mention, agent))) return;
    const onError = (error: unknown) => logger.error({ error: String(error), agent: agent.username }, 'hosted agent reply failed');
    const persona = { username: agent.username, name: agent.name === '' ? agent.username : agent.name, description: agent.description };
    await personaHandler(persona, personaDependencies(agent.username, onError))(mention, inProcessReply(runtime, agent, mention, onError));
  });
  return runtime;
}
