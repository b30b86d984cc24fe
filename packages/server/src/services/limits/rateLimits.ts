import { clusterNamespace, type ServerConfig } from '../../config';
import { ConfabServerError } from '../../errors';
import { MemoryCounters, type LimitCounters } from './counters';
import { RedisCounters } from './redisCounters';

/**
 * At most `maximum` units (events, or bytes) per fixed window of `windowMs`. `name` labels its
 * refusals in the metrics when the limit is not one of `limitsOf`'s (whose names are their keys).
 */
export interface WindowLimit {
  maximum: number;
  windowMs: number;
  name?: string;
}

/** A sustained rate with bursts: refills `perSecond`, holds at most `burst`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
  name?: string;
}

const minuteMs = 60 * 1000;
const hourMs = 60 * minuteMs;
const megabyte = 1024 * 1024;

/**
 * Every request limit of the server, in one table. The WebSocket's own frame limit
 * (`realtime/connection.ts`) is per socket and stays there; these are per person, per address or
 * per chat, and so are shared by every instance when REDIS_URL is set.
 */
export function limitsOf(config: ServerConfig) {
  return {
    /** Failed logins per resolved account (or per unknown identity), whatever the address. */
    loginFailuresPerAccount: { maximum: 10, windowMs: 15 * minuteMs },
    /** Failed logins, reset requests and reset confirmations per client address. */
    attemptsPerIp: { maximum: 50, windowMs: 15 * minuteMs },
    /** Password-reset mails per account. */
    resetRequestsPerAccount: { maximum: 10, windowMs: 15 * minuteMs },
    signupsPerIp: { maximum: config.signupsPerIpPerHour, windowMs: hourMs },
    temporaryAccountsPerIp: { maximum: config.temporaryAccountsPerIpPerHour, windowMs: hourMs },
    uploadBytesPerUser: { maximum: config.uploadMegabytesPerUserPerHour * megabyte, windowMs: hourMs },
    invitationsPerUser: { maximum: config.invitationsPerUserPerHour, windowMs: hourMs },
    invitationsPerChat: { maximum: config.invitationsPerChatPerHour, windowMs: hourMs },
    /** Developer agents a person creates (how many they may have at all is counted in the database). */
    agentsPerUser: { maximum: config.agentsPerUserPerHour, windowMs: hourMs },
    messagesPerUser: { perSecond: config.messagesPerUserPerSecond, burst: config.messagesPerUserPerSecond * 2 },
    /**
     * System lines per chat ('Ann renamed the chat…'): a burst of 30 changes, then one each 5 s.
     * Past it the change is still made, only its line is left out, so renaming a chat in a loop
     * cannot flood everyone's history and unread counts.
     */
    systemLinesPerChat: { perSecond: 0.2, burst: 30 },
    /** Requests to hosted agents per asking person and per chat (docs/SECURITY.md H11). */
    hostedAgentCallsPerUser: { maximum: config.agentCallsPerUserPerHour, windowMs: hourMs },
    hostedAgentCallsPerChat: { maximum: config.agentCallsPerChatPerHour, windowMs: hourMs },
    /** Inbound mails per connecting address and per receiving chat or inbox (docs/SECURITY.md M7). */
    inboundMailsPerAddress: { maximum: config.inboundMailsPerAddressPerHour, windowMs: hourMs },
    inboundMailsPerRecipient: { maximum: config.inboundMailsPerRecipientPerHour, windowMs: hourMs },
  } as const satisfies Record<string, WindowLimit | RateLimit>;
}

export type Limits = ReturnType<typeof limitsOf>;

/** A 429 with a message that says what to do. */
export function tooManyRequests(message?: string): ConfabServerError {
  return new ConfabServerError('tooManyRequests', message);
}

/**
 * Counting against the limits above. Keys name who is counted, e.g. `login:account:<id>`; the
 * same key on every instance is the same count when the counters live in Redis.
 */
export class RateLimits {
  readonly limits: Limits;
  /** Each limit of the table by its object, for the name its refusals are counted under. */
  private readonly names: Map<WindowLimit | RateLimit, string>;

  constructor(
    private readonly counters: LimitCounters,
    config: ServerConfig,
    /** Told the limit's name whenever a check refuses (docs/OPERATIONS.md, confab_rate_limit_refusals_total). */
    private readonly onRefused: (limit: string) => void = () => undefined,
  ) {
    this.limits = limitsOf(config);
    this.names = new Map(Object.entries(this.limits).map(([name, limit]) => [limit, name]));
    this.nowMs = () => config.now().getTime();
  }

  private readonly nowMs: () => number;

  /** Passes `allowed` through, counting a refusal under the limit's name. */
  private counted(allowed: boolean, limit: WindowLimit | RateLimit): boolean {
    if (!allowed) this.onRefused(this.names.get(limit) ?? limit.name ?? 'other');
    return allowed;
  }

  /** True when `key` has used its whole allowance in the current window (a refusal for the caller). */
  async isExhausted(key: string, limit: WindowLimit): Promise<boolean> {
    return !this.counted((await this.counters.count(key, limit.windowMs, this.nowMs())) < limit.maximum, limit);
  }

  /** Counts `amount` units (default one event) against `key`. */
  async spend(key: string, limit: WindowLimit, amount = 1): Promise<void> {
    await this.counters.add(key, amount, limit.windowMs, this.nowMs());
  }

  /**
   * Counts one event and answers whether it was within the allowance. Atomic: of many
   * concurrent callers, on any number of instances, exactly the allowed number get true.
   */
  async allow(key: string, limit: WindowLimit): Promise<boolean> {
    return this.counted((await this.counters.add(key, 1, limit.windowMs, this.nowMs())) <= limit.maximum, limit);
  }

  async forget(key: string, limit: WindowLimit): Promise<void> {
    await this.counters.reset(key, limit.windowMs, this.nowMs());
  }

  /** One event at a sustained rate; false when `key` is sending faster than `limit`. */
  async take(key: string, limit: RateLimit): Promise<boolean> {
    return this.counted(await this.counters.take(key, limit.perSecond, limit.burst, this.nowMs()), limit);
  }

  async close(): Promise<void> {
    await this.counters.close();
  }
}

/**
 * In memory for one instance; in Redis when instances share REDIS_URL. Instances of one
 * deployment share CONFAB_SECRET, so a namespace derived from it groups exactly them.
 */
export function createRateLimits(config: ServerConfig, onError: (error: unknown) => void, onRefused?: (limit: string) => void): RateLimits {
  if (config.redisUrl === undefined) return new RateLimits(new MemoryCounters(), config, onRefused);
  return new RateLimits(new RedisCounters(config.redisUrl, `${clusterNamespace(config.secret)}:limits`, onError), config, onRefused);
}
