/**
 * The hourly allowance of hosted-agent requests (docs/SECURITY.md H11): every answer of a hosted
 * agent costs the server (a DuckDB job, a page fetched, a model call), so one person and one chat
 * may ask for only so many per hour, counted with every other limit (in Redis when instances share
 * REDIS_URL). Past it the asker is told, in a notice only they see, when to ask again.
 */
import type { Mention } from '@confab/client/protocol';
import type { Services } from '../services/index';

/** The notice text when `mention` is over an allowance (and counts it when it is not), else undefined. */
export function hostedAllowance(services: Services): (mention: Mention) => Promise<string | undefined> {
  const { rateLimits, config } = services.context;
  const { hostedAgentCallsPerUser: perUser, hostedAgentCallsPerChat: perChat } = rateLimits.limits;
  return async (mention) => {
    // Windows are clock hours (services/limits/counters.ts): the count starts again at the next one.
    const minutes = Math.max(1, Math.ceil((perUser.windowMs - (config.now().getTime() % perUser.windowMs)) / 60_000));
    const later = `ask again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
    if (!(await rateLimits.allow(`hosted-agents:user:${mention.author_id}`, perUser))) {
      return `Too many requests: you have asked hosted agents ${perUser.maximum} times this hour, the most allowed; ${later}.`;
    }
    if (!(await rateLimits.allow(`hosted-agents:chat:${mention.chat_id}`, perChat))) {
      return `Too many requests: this chat has asked hosted agents ${perChat.maximum} times this hour, the most allowed; ${later}.`;
    }
    return undefined;
  };
}
