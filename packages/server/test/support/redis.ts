import { Redis } from 'ioredis';

/** Redis used by the realtime tests; CI starts it at this address. */
export const redisUrl = process.env['CONFAB_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** Like PostgreSQL: skipped on a developer machine without Redis, required (so failing) in CI. */
export async function redisAvailable(): Promise<boolean> {
  if (process.env['CI'] !== undefined) return true;
  const reachable = await redisReachable();
  if (!reachable) console.warn('Redis is not reachable: skipping the Redis variants (set CI to make this fail)');
  return reachable;
}
