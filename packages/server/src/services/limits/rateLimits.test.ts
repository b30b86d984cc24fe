import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config';
import { ConfabServerError } from '../../errors';
import { MemoryCounters } from './counters';
import { limitsOf, limitsUnreachableText, RateLimits, whenUnreachable } from './rateLimits';
import { RedisCounters } from './redisCounters';

/** Limits whose shared counts live in a Redis that nothing answers at (docs/OPERATIONS.md, Fault matrix). */
describe('rate limits while Redis is unreachable', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-limits-'));
  const config = resolveConfig({ dataDir, secret: 'x'.repeat(32) });
  // Port 1 refuses at once: a real client, a real failure.
  const reported: unknown[] = [];
  const limits = new RateLimits(new RedisCounters('redis://127.0.0.1:1', 'test'), config, new MemoryCounters(), (error) => reported.push(error));

  afterAll(async () => {
    await limits.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('declares what every limit does', () => {
    for (const limit of Object.values(limitsOf(config))) expect(Object.values(whenUnreachable)).toContain(limit.whenUnreachable);
  });

  it('refuses a closed limit with a 503 that says to try again', async () => {
    const refusal = await limits.isExhausted('login:account:ann', limits.limits.loginFailuresPerAccount).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfabServerError);
    expect(refusal).toMatchObject({ status: 503, message: limitsUnreachableText });
  });

  it('counts a local limit on this instance instead, still refusing past it', async () => {
    const messages = { perSecond: 0.001, burst: 3, whenUnreachable: whenUnreachable.local };
    const answers = [];
    for (let index = 0; index < 5; index += 1) answers.push(await limits.take('messages:user:bob', messages));
    expect(answers).toEqual([true, true, true, false, false]);
    const invitations = { maximum: 2, windowMs: 60_000, whenUnreachable: whenUnreachable.local };
    expect([await limits.allow('k', invitations), await limits.allow('k', invitations), await limits.allow('k', invitations)]).toEqual([true, true, false]);
  });

  it('forgets best effort and reports the outage once, not once a request', async () => {
    await limits.forget('login:account:ann', limits.limits.loginFailuresPerAccount);
    expect(reported).toHaveLength(1);
  });
});
