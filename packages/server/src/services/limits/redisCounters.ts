import type { Redis } from 'ioredis';
import { openRedis } from '../../redis';
import { windowIndex, type LimitCounters } from './counters';

/** INCRBY, and on the window's first count an expiry (in real time) so old windows disappear. */
const addScript = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total`;

/** A token bucket in a hash {tokens, at}, refilled from the caller's clock; answers 1 or 0. */
const takeScript = `
local perMs = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
if now > at then tokens = math.min(burst, tokens + (now - at) * perMs) end
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(math.max(now, at)))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / perMs) + 1000)
return allowed`;

/**
 * Counts shared by every instance through Redis. Keys carry a namespace (derived from the
 * cluster's secret by the caller), so deployments or test servers sharing one Redis never mix.
 */
export class RedisCounters implements LimitCounters {
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly namespace: string,
    onError: (error: unknown) => void = () => undefined,
  ) {
    // Bounded: while Redis is away a count fails at once (src/redis.ts), and RateLimits decides.
    this.redis = openRedis(redisUrl, onError);
  }

  private windowKey(key: string, windowMs: number, nowMs: number): string {
    return `${this.namespace}:${key}@${windowIndex(windowMs, nowMs)}`;
  }

  async add(key: string, amount: number, windowMs: number, nowMs: number): Promise<number> {
    // Kept twice the window in real time: enough for any caller clock within a window of ours.
    const result = await this.redis.eval(addScript, 1, this.windowKey(key, windowMs, nowMs), String(amount), String(windowMs * 2));
    return Number(result);
  }

  async count(key: string, windowMs: number, nowMs: number): Promise<number> {
    return Number((await this.redis.get(this.windowKey(key, windowMs, nowMs))) ?? 0);
  }

  async reset(key: string, windowMs: number, nowMs: number): Promise<void> {
    await this.redis.del(this.windowKey(key, windowMs, nowMs));
  }

  async take(key: string, perSecond: number, burst: number, nowMs: number): Promise<boolean> {
    const result = await this.redis.eval(takeScript, 1, `${this.namespace}:${key}`, String(perSecond), String(burst), String(nowMs));
    return Number(result) === 1;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
