import { Redis, type RedisOptions } from 'ioredis';

/**
 * How every Redis connection of the server (bus, rate limits, presence) behaves while Redis is
 * away, so that an outage costs a bounded wait and a bounded amount of memory (docs/OPERATIONS.md,
 * Fault matrix):
 *
 * - Until the first connection attempt ends, commands queue (the server starts while ioredis
 *   connects).
 * - After it, whether it succeeded or not, nothing queues: while Redis is unreachable a command fails at once, and the caller
 *   decides (the bus serves this instance's own sockets, each rate limit fails open or closed).
 *   ioredis's offline queue would otherwise hold every publish and count of the outage.
 * - A command sent on a connection that stopped answering (Redis stopped, not closed) fails after
 *   `commandTimeoutMs`; a connection attempt gives up after `connectTimeoutMs` and is retried
 *   (at most every 2 s, ioredis's default backoff), forever.
 */
export const redisTimeouts = {
  connectTimeoutMs: 2_000,
  commandTimeoutMs: 2_000,
} as const;

/** Opens a connection with the bounds above; `onError` hears connection errors (an unheard one would crash). */
export function openRedis(redisUrl: string, onError: (error: unknown) => void, options: RedisOptions = {}): Redis {
  const redis = new Redis(redisUrl, {
    connectTimeout: redisTimeouts.connectTimeoutMs,
    commandTimeout: redisTimeouts.commandTimeoutMs,
    // A command queued before the first connection waits for one retry at most.
    maxRetriesPerRequest: 1,
    ...options,
  });
  redis.on('error', onError);
  // ioredis reads this option on every command: from now on, no queue while disconnected.
  const stopQueueing = () => {
    redis.options.enableOfflineQueue = false;
  };
  redis.once('ready', stopQueueing);
  redis.once('error', stopQueueing);
  return redis;
}
