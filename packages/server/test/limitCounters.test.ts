import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCounters, type LimitCounters } from '../src/services/limits/counters';
import { RedisCounters } from '../src/services/limits/redisCounters';
import { redisAvailable, redisUrl } from './support/redis';

/** Both counter stores run through the same suite (house style: one suite per interface). */
const implementations: { name: string; create: (namespace: string) => LimitCounters }[] = [
  { name: 'memory', create: () => new MemoryCounters() },
];
if (await redisAvailable()) implementations.push({ name: 'redis', create: (namespace) => new RedisCounters(redisUrl, namespace) });

const hourMs = 60 * 60 * 1000;
const t0 = Date.UTC(2026, 10, 26, 10, 0, 0);

describe.each(implementations)('limit counters ($name)', ({ create }) => {
  const opened: LimitCounters[] = [];
  const open = (namespace = `test:${randomBytes(6).toString('hex')}`) => {
    const counters = create(namespace);
    opened.push(counters);
    return counters;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((counters) => counters.close()));
  });

  it('adds within a window, starts again in the next, and resets on demand', async () => {
    const counters = open();
    expect(await counters.count('k', hourMs, t0)).toBe(0);
    expect(await counters.add('k', 1, hourMs, t0)).toBe(1);
    expect(await counters.add('k', 5, hourMs, t0 + 1000)).toBe(6);
    expect(await counters.count('k', hourMs, t0 + hourMs - 1)).toBe(6);
    expect(await counters.count('k', hourMs, t0 + hourMs)).toBe(0);
    expect(await counters.count('other', hourMs, t0)).toBe(0);
    await counters.reset('k', hourMs, t0);
    expect(await counters.count('k', hourMs, t0)).toBe(0);
  });

  it('counts concurrent adds exactly (no lost update)', async () => {
    const counters = open();
    const totals = await Promise.all(Array.from({ length: 50 }, () => counters.add('k', 1, hourMs, t0)));
    expect(new Set(totals).size).toBe(50);
    expect(Math.max(...totals)).toBe(50);
  });

  it('token bucket: a burst, then the sustained rate', async () => {
    const counters = open();
    const burst = await Promise.all(Array.from({ length: 12 }, () => counters.take('b', 5, 10, t0)));
    expect(burst.filter(Boolean)).toHaveLength(10);
    expect(await counters.take('b', 5, 10, t0 + 100)).toBe(false);
    // 5 per second: one token every 200 ms.
    expect(await counters.take('b', 5, 10, t0 + 200)).toBe(true);
    expect(await counters.take('b', 5, 10, t0 + 200)).toBe(false);
    // A long pause refills to the burst and no further.
    const later = await Promise.all(Array.from({ length: 12 }, () => counters.take('b', 5, 10, t0 + 60_000)));
    expect(later.filter(Boolean)).toHaveLength(10);
  });

  it('two stores on one namespace share counts; another namespace does not', async () => {
    const namespace = `test:${randomBytes(6).toString('hex')}`;
    const first = open(namespace);
    const second = implementationIsShared(first) ? open(namespace) : first;
    await first.add('shared', 3, hourMs, t0);
    expect(await second.add('shared', 1, hourMs, t0)).toBe(4);
    const elsewhere = open();
    expect(await elsewhere.count('shared', hourMs, t0)).toBe(0);
  });
});

/** Memory counters are one process's own; only Redis stores are shared by construction. */
function implementationIsShared(counters: LimitCounters): boolean {
  return counters instanceof RedisCounters;
}
