import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { openRedis } from '../redis';

/**
 * Which developer agents have a connection open, on any instance. In memory for one instance;
 * in Redis (REDIS_URL) a hash per agent of instance id → expiry, refreshed while the connection
 * lives, so an instance that dies without cleaning up stops counting within `ttlMs`.
 */
export interface AgentPresence {
  /** Counts one more open connection of the agent on this instance. */
  connected(agentId: string): Promise<void>;
  /** Counts one fewer; true when this instance has none left for the agent. */
  disconnected(agentId: string): Promise<boolean>;
  isOnline(agentId: string): Promise<boolean>;
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

  async close(): Promise<void> {
    this.counts.clear();
  }
}

const ttlMs = 45_000;
const refreshMs = 15_000;

export class RedisPresence implements AgentPresence {
  private readonly redis: Redis;
  private readonly local = new MemoryPresence();
  private readonly localAgents = new Set<string>();
  private readonly instanceId = randomBytes(8).toString('hex');
  private readonly timer: NodeJS.Timeout;

  constructor(
    redisUrl: string,
    private readonly namespace: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.redis = openRedis(redisUrl, onError);
    this.timer = setInterval(() => void this.refresh(), refreshMs);
    this.timer.unref();
  }

  private key(agentId: string): string {
    return `${this.namespace}:presence:${agentId}`;
  }

  private async mark(agentId: string): Promise<void> {
    await this.redis.multi().hset(this.key(agentId), this.instanceId, String(Date.now() + ttlMs)).pexpire(this.key(agentId), ttlMs * 2).exec();
  }

  private async refresh(): Promise<void> {
    try {
      await Promise.all([...this.localAgents].map((agentId) => this.mark(agentId)));
    } catch (error) {
      this.onError(error);
    }
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
    return true;
  }

  async isOnline(agentId: string): Promise<boolean> {
    const instances = await this.redis.hgetall(this.key(agentId));
    const now = Date.now();
    return Object.values(instances).some((expiresAt) => Number(expiresAt) > now);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([...this.localAgents].map((agentId) => this.redis.hdel(this.key(agentId), this.instanceId)));
    await this.redis.quit().catch(() => undefined);
  }
}
