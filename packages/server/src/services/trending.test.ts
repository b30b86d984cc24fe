import { describe, expect, it } from 'vitest';
import { trendingScore } from './trending';

describe('trendingScore', () => {
  it('gives a fresh drop a higher score than an old one with the same likes', () => {
    const now = Date.UTC(2026, 0, 3);
    expect(trendingScore(3, 0, now - 3_600_000, now)).toBeGreaterThan(trendingScore(3, 0, now - 48 * 3_600_000, now));
  });

  it('counts ten unique views as one like', () => {
    const now = Date.UTC(2026, 0, 3);
    expect(trendingScore(0, 10, now, now)).toBeCloseTo(trendingScore(1, 0, now, now));
  });
});
