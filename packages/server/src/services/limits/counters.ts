/**
 * Where rate-limit counts live. One interface, two implementations run through one suite
 * (test/limitCounters.test.ts): in memory for one instance, Redis (REDIS_URL) when several
 * instances must share every count.
 *
 * Windows are fixed and aligned to the caller's clock (`nowMs`), so both implementations agree
 * under a test clock and across instances: a window of 1 hour is the clock hour the event falls in.
 */
export interface LimitCounters {
  /** Adds `amount` to `key`'s count in the window containing `nowMs`; answers the new total. */
  add(key: string, amount: number, windowMs: number, nowMs: number): Promise<number>;
  /** `key`'s count in the window containing `nowMs` (0 when nothing was counted). */
  count(key: string, windowMs: number, nowMs: number): Promise<number>;
  /** Forgets `key`'s count in the window containing `nowMs`. */
  reset(key: string, windowMs: number, nowMs: number): Promise<void>;
  /**
   * Token bucket: refills at `perSecond` up to `burst`; takes one token and answers true, or
   * answers false when the bucket is empty. Atomic, so concurrent callers never overspend.
   */
  take(key: string, perSecond: number, burst: number, nowMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The window a moment falls in: the same number on every instance for the same clock. */
export function windowIndex(windowMs: number, nowMs: number): number {
  return Math.floor(nowMs / windowMs);
}

interface Bucket {
  tokens: number;
  atMs: number;
}

const sweepAbove = 100_000;

/** Counts in this process's memory; the embedded default. */
export class MemoryCounters implements LimitCounters {
  private readonly windows = new Map<string, { count: number; endsAtMs: number }>();
  private readonly buckets = new Map<string, Bucket & { idleAtMs: number }>();

  async add(key: string, amount: number, windowMs: number, nowMs: number): Promise<number> {
    const index = windowIndex(windowMs, nowMs);
    const slot = `${key}@${index}`;
    const window = this.windows.get(slot) ?? { count: 0, endsAtMs: (index + 1) * windowMs };
    window.count += amount;
    this.windows.set(slot, window);
    if (this.windows.size > sweepAbove) this.sweep(nowMs);
    return window.count;
  }

  async count(key: string, windowMs: number, nowMs: number): Promise<number> {
    return this.windows.get(`${key}@${windowIndex(windowMs, nowMs)}`)?.count ?? 0;
  }

  async reset(key: string, windowMs: number, nowMs: number): Promise<void> {
    this.windows.delete(`${key}@${windowIndex(windowMs, nowMs)}`);
  }

  async take(key: string, perSecond: number, burst: number, nowMs: number): Promise<boolean> {
    const bucket = this.buckets.get(key) ?? { tokens: burst, atMs: nowMs, idleAtMs: 0 };
    bucket.tokens = Math.min(burst, bucket.tokens + (Math.max(0, nowMs - bucket.atMs) / 1000) * perSecond);
    bucket.atMs = nowMs;
    // Once full again the bucket carries no information and may be swept.
    bucket.idleAtMs = nowMs + (burst / perSecond) * 1000;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > sweepAbove) this.sweep(nowMs);
    return allowed;
  }

  private sweep(nowMs: number): void {
    for (const [slot, window] of this.windows) if (window.endsAtMs <= nowMs) this.windows.delete(slot);
    for (const [key, bucket] of this.buckets) if (bucket.idleAtMs <= nowMs) this.buckets.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.buckets.clear();
  }
}
