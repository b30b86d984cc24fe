import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { openRedis } from '../redis';

/**
 * Who has a connection open (developer agents, and people through `PresenceService`), on any
 * instance. In memory for one instance; in Redis (REDIS_URL) a hash per id of instance id →
 * expiry, refreshed while the connection lives, so an instance that dies without cleaning up
 * stops counting within `ttlMs`, and then `onExpired` tells whoever listens that the id went
 * offline (nobody else would: its instance is gone).
 */
export interface AgentPresence {
  /** Counts one more open connection of the agent on this instance. */
  connected(agentId: string): Promise<void>;
  /** Counts one fewer; true when this instance has none left for the agent. */
  disconnected(agentId: string): Promise<boolean>;
  isOnline(agentId: string): Promise<boolean>;
  /** Called with an id whose every connection died with its instance (Redis only; once, on one instance). */
  onExpired(listener: (agentId: string) => void): void;
  close(): Promise<void>;
}

export class MemoryPresence implements AgentPresence {
  private readonly counts = new Map<string, number>();

  async connected(agentId: string): Promise<void> {
    this.counts.set(agentId, (this.counts.get(agentId) ?? 0) + 1);
  }

  async disconnected(agentId: string): Promise<boolean> {
    const left = (this.counts.get(agentId) ?? 1) - 1;
    if (left > 0) {
      this.counts.set(agentId, left);
      return false;
    }
    this.counts.delete(agentId);
    return true;
  }

  async isOnline(agentId: string): Promise<boolean> {
    return (this.counts.get(agentId) ?? 0) > 0;
  }

  /** One process: its connections end with it, and so does everyone it would tell. */
  onExpired(): void {}

  async close(): Promise<void> {
    this.counts.clear();
  }
}

export class RedisPresence implements AgentPresence {
  private readonly redis: Redis;
  private readonly local = new MemoryPresence();
  private readonly localAgents = new Set<string>();
  private readonly instanceId = randomBytes(8).toString('hex');
  private readonly timer: NodeJS.Timeout;
  private readonly expiredListeners: Array<(agentId: string) => void> = [];
  private readonly refreshMs: number;

  constructor(
    redisUrl: string,
    private readonly namespace: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly ttlMs = 45_000,
  ) {
    this.redis = openRedis(redisUrl, onError);
    this.refreshMs = Math.max(200, Math.floor(ttlMs / 3));
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  private key(agentId: string): string {
    return `${this.namespace}:presence:${agentId}`;
  }

  /** Every id by the latest expiry any instance wrote for it: where a dead instance's ids are found. */
  private get expiries(): string {
    return `${this.namespace}:presence-expiries`;
  }

  private async mark(agentId: string): Promise<void> {
    const expiresAt = Date.now() + this.ttlMs;
    await this.redis
      .multi()
      .hset(this.key(agentId), this.instanceId, String(expiresAt))
      .pexpire(this.key(agentId), this.ttlMs * 2)
      .zadd(this.expiries, 'GT', expiresAt, agentId)
      .exec();
  }

  private async refresh(): Promise<void> {
    try {
      await Promise.all([...this.localAgents].map((agentId) => this.mark(agentId)));
      await this.sweep();
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * Ids no instance has refreshed within the ttl: their instances died. Each is claimed by
   * removing it (one instance wins) and, unless it came back meanwhile, announced as expired.
   */
  private async sweep(): Promise<void> {
    const due = await this.redis.zrangebyscore(this.expiries, '-inf', Date.now(), 'LIMIT', 0, 200);
    for (const agentId of due) {
      if ((await this.redis.zrem(this.expiries, agentId)) !== 1) continue;
      if (await this.isOnline(agentId)) continue;
      for (const listener of this.expiredListeners) listener(agentId);
    }
  }

  onExpired(listener: (agentId: string) => void): void {
    this.expiredListeners.push(listener);
  }

  async connected(agentId: string): Promise<void> {
    await this.local.connected(agentId);
    this.localAgents.add(agentId);
    await this.mark(agentId);
  }

  async disconnected(agentId: string): Promise<boolean> {
    if (!(await this.local.disconnected(agentId))) return false;
    this.localAgents.delete(agentId);
    await this.redis.hdel(this.key(agentId), this.instanceId);
    // Gone the usual way (and told so by the caller): nothing for a sweep to announce again.
    if ((await this.redis.hlen(this.key(agentId))) === 0) await this.redis.zrem(this.expiries, agentId);
    return true;
  }

  async isOnline(agentId: string): Promise<boolean> {
    const instances = await this.redis.hgetall(this.key(agentId));
    const now = Date.now();
    return Object.values(instances).some((expiresAt) => Number(expiresAt) > now);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // Ids still counted here went without a goodbye: a sweep elsewhere announces them once expired.
    await Promise.allSettled([...this.localAgents].map((agentId) => this.redis.hdel(this.key(agentId), this.instanceId)));
    await this.redis.quit().catch(() => undefined);
  }
}
