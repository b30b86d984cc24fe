import { clusterNamespace, type ServerConfig } from '../../config';
import { ConfabServerError } from '../../errors';
import { MemoryCounters, type LimitCounters } from './counters';
import { RedisCounters } from './redisCounters';

/**
 * What a limit does while its shared counts (Redis) cannot be reached, chosen per limit and listed
 * in docs/OPERATIONS.md (Fault matrix):
 * - `closed`: the action is refused with a 503 ('try again shortly'). For limits that guard
 *   accounts and identities (password guessing, reset mails, sign-ups, inbound mail, whose
 *   senders retry a 451 by themselves): an outage must not be a way around them.
 * - `local`: counted on this instance alone until Redis is back, so the allowance is at most
 *   the number of instances times the limit. For limits on everyday work (messages, uploads,
 *   invitations, agents): chatting goes on, still bounded.
 */
export const whenUnreachable = { closed: 'closed', local: 'local' } as const;
export type WhenUnreachable = (typeof whenUnreachable)[keyof typeof whenUnreachable];

/**
 * At most `maximum` units (events, or bytes) per fixed window of `windowMs`. `name` labels its
 * refusals in the metrics when the limit is not one of `limitsOf`'s (whose names are their keys).
 */
export interface WindowLimit {
  maximum: number;
  windowMs: number;
  whenUnreachable: WhenUnreachable;
  name?: string;
}

/** A sustained rate with bursts: refills `perSecond`, holds at most `burst`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
  whenUnreachable: WhenUnreachable;
  name?: string;
}

/** The 503 of a `closed` limit whose counts cannot be read. */
export const limitsUnreachableText = 'The server cannot check its rate limits right now. Please try again in a few seconds.';

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
    loginFailuresPerAccount: { maximum: 10, windowMs: 15 * minuteMs, whenUnreachable: 'closed' },
    /** Failed logins, reset requests and reset confirmations per client address. */
    attemptsPerIp: { maximum: 50, windowMs: 15 * minuteMs, whenUnreachable: 'closed' },
    /** Password-reset mails per account. */
    resetRequestsPerAccount: { maximum: 10, windowMs: 15 * minuteMs, whenUnreachable: 'closed' },
    signupsPerIp: { maximum: config.signupsPerIpPerHour, windowMs: hourMs, whenUnreachable: 'closed' },
    temporaryAccountsPerIp: { maximum: config.temporaryAccountsPerIpPerHour, windowMs: hourMs, whenUnreachable: 'closed' },
    uploadBytesPerUser: { maximum: config.uploadMegabytesPerUserPerHour * megabyte, windowMs: hourMs, whenUnreachable: 'local' },
    invitationsPerUser: { maximum: config.invitationsPerUserPerHour, windowMs: hourMs, whenUnreachable: 'local' },
    invitationsPerChat: { maximum: config.invitationsPerChatPerHour, windowMs: hourMs, whenUnreachable: 'local' },
    /** Developer agents a person creates (how many they may have at all is counted in the database). */
    agentsPerUser: { maximum: config.agentsPerUserPerHour, windowMs: hourMs, whenUnreachable: 'local' },
    messagesPerUser: { perSecond: config.messagesPerUserPerSecond, burst: config.messagesPerUserPerSecond * 2, whenUnreachable: 'local' },
    /**
     * System lines per chat ('Ann renamed the chat…'): a burst of 30 changes, then one each 5 s.
     * Past it the change is still made, only its line is left out, so renaming a chat in a loop
     * cannot flood everyone's history and unread counts.
     */
    systemLinesPerChat: { perSecond: 0.2, burst: 30, whenUnreachable: 'local' },
    /** Requests to hosted agents per asking person and per chat (docs/SECURITY.md H11). */
    hostedAgentCallsPerUser: { maximum: config.agentCallsPerUserPerHour, windowMs: hourMs, whenUnreachable: 'local' },
    hostedAgentCallsPerChat: { maximum: config.agentCallsPerChatPerHour, windowMs: hourMs, whenUnreachable: 'local' },
    /** Inbound mails per connecting address and per receiving chat or inbox (docs/SECURITY.md M7). */
    inboundMailsPerAddress: { maximum: config.inboundMailsPerAddressPerHour, windowMs: hourMs, whenUnreachable: 'closed' },
    inboundMailsPerRecipient: { maximum: config.inboundMailsPerRecipientPerHour, windowMs: hourMs, whenUnreachable: 'closed' },
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
  /** True from a failed count until a count succeeds again: one log line per outage, not one per request. */
  private unreachable = false;
  /** Each limit of the table by its object, for the name its refusals are counted under. */
  private readonly names: Map<WindowLimit | RateLimit, string>;

  /**
   * `fallback`: where `local` limits count while `counters` cannot be reached (given with shared
   * counters; counters in this process's memory never fail).
   */
  constructor(
    private readonly counters: LimitCounters,
    config: ServerConfig,
    private readonly fallback?: LimitCounters,
    private readonly onUnreachable: (error: unknown) => void = () => undefined,
    /** Told the limit's name whenever a check refuses (docs/OPERATIONS.md, confab_rate_limit_refusals_total). */
    private readonly onRefused: (limit: string) => void = () => undefined,
  ) {
    this.limits = limitsOf(config);
    this.names = new Map(Object.entries(this.limits).map(([name, limit]) => [limit, name]));
    this.nowMs = () => config.now().getTime();
  }

  private readonly nowMs: () => number;

  /** `count` on the shared counters, or what the limit does while they cannot be reached. */
  private async counted<Result>(limit: { whenUnreachable: WhenUnreachable }, count: (counters: LimitCounters) => Promise<Result>): Promise<Result> {
    if (this.fallback === undefined) return count(this.counters);
    try {
      const result = await count(this.counters);
      if (this.unreachable) this.onUnreachable(new Error('rate limit counts are reachable again'));
      this.unreachable = false;
      return result;
    } catch (error) {
      if (!this.unreachable) this.onUnreachable(error);
      this.unreachable = true;
      if (limit.whenUnreachable === whenUnreachable.closed) throw new ConfabServerError('unavailable', limitsUnreachableText);
      return count(this.fallback);
    }
  }

  /** Passes `allowed` through, counting a refusal under the limit's name. */
  private refusalCounted(allowed: boolean, limit: WindowLimit | RateLimit): boolean {
    if (!allowed) this.onRefused(this.names.get(limit) ?? limit.name ?? 'other');
    return allowed;
  }

  /** True when `key` has used its whole allowance in the current window (a refusal for the caller). */
  async isExhausted(key: string, limit: WindowLimit): Promise<boolean> {
    return !this.refusalCounted((await this.counted(limit, (counters) => counters.count(key, limit.windowMs, this.nowMs()))) < limit.maximum, limit);
  }

  /** Counts `amount` units (default one event) against `key`. */
  async spend(key: string, limit: WindowLimit, amount = 1): Promise<void> {
    await this.counted(limit, (counters) => counters.add(key, amount, limit.windowMs, this.nowMs()));
  }

  /**
   * Counts one event and answers whether it was within the allowance. Atomic: of many
   * concurrent callers, on any number of instances, exactly the allowed number get true.
   */
  async allow(key: string, limit: WindowLimit): Promise<boolean> {
    return this.refusalCounted((await this.counted(limit, (counters) => counters.add(key, 1, limit.windowMs, this.nowMs()))) <= limit.maximum, limit);
  }

  /** Forgetting is best effort whatever the limit: a count left behind only refuses sooner. */
  async forget(key: string, limit: WindowLimit): Promise<void> {
    await this.counted({ whenUnreachable: whenUnreachable.local }, (counters) => counters.reset(key, limit.windowMs, this.nowMs()));
  }

  /** One event at a sustained rate; false when `key` is sending faster than `limit`. */
  async take(key: string, limit: RateLimit): Promise<boolean> {
    return this.refusalCounted(await this.counted(limit, (counters) => counters.take(key, limit.perSecond, limit.burst, this.nowMs())), limit);
  }

  async close(): Promise<void> {
    await this.counters.close();
    await this.fallback?.close();
  }
}

/**
 * In memory for one instance; in Redis when instances share REDIS_URL. Instances of one
 * deployment share CONFAB_SECRET, so a namespace derived from it groups exactly them.
 */
export function createRateLimits(config: ServerConfig, onError: (error: unknown) => void, onRefused?: (limit: string) => void): RateLimits {
  if (config.redisUrl === undefined) return new RateLimits(new MemoryCounters(), config, undefined, undefined, onRefused);
  const shared = new RedisCounters(config.redisUrl, `${clusterNamespace(config.secret)}:limits`, onError);
  return new RateLimits(shared, config, new MemoryCounters(), onError, onRefused);
}
