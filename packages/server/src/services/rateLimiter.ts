/**
 * Fixed-window counters kept in memory, keyed by any string (e.g. "login:ip:1.2.3.4").
 * In-process is enough for one instance; several instances each enforce their own share.
 */
export interface RateLimit {
  maximum: number;
  windowMs: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when `key` already used its allowance in the current window. */
  isLimited(key: string, limit: RateLimit): boolean {
    const window = this.current(key);
    return window !== undefined && window.count >= limit.maximum;
  }

  /** Counts one event, or `amount` units of something (e.g. uploaded bytes), against `key`. */
  record(key: string, limit: RateLimit, amount = 1): void {
    const existing = this.current(key);
    if (existing === undefined) {
      this.windows.set(key, { count: amount, resetAt: this.now() + limit.windowMs });
      if (this.windows.size > 100_000) this.sweep();
    } else {
      existing.count += amount;
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    if (window !== undefined && window.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const fifteenMinutesMs = 15 * 60 * 1000;

/** Failed logins or reset attempts allowed per (account, IP) pair and per IP. */
export const attemptLimits = {
  perAccountAndIp: { maximum: 10, windowMs: fifteenMinutesMs },
  perIp: { maximum: 50, windowMs: fifteenMinutesMs },
} as const satisfies Record<string, RateLimit>;
