import { describe, expect, it } from 'vitest';
import { LatestOnly } from './latestOnly';

describe('LatestOnly', () => {
  it('makes every earlier load stale when a new one begins, and only those', () => {
    const loads = new LatestOnly();
    const first = loads.renew();
    const second = loads.renew();
    expect(first.aborted).toBe(true);
    expect(second.aborted).toBe(false);
    expect(loads.signal).toBe(second);
  });

  it('lets a load that joined the current one see it go stale later', () => {
    const loads = new LatestOnly();
    const joined = loads.signal;
    expect(joined.aborted).toBe(false);
    loads.renew();
    expect(joined.aborted).toBe(true);
  });
});
