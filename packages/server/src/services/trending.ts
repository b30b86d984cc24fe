/**
 * How the trending feed ranks drops: Hacker News-style gravity, points / (age in hours + 2)^1.8,
 * with a unique view worth a tenth of a like. A fresh drop with a few likes outranks an old one
 * with the same likes; drops older than the window are not ranked at all.
 */
export const trending = { gravity: 1.8, viewWeight: 0.1, offsetHours: 2, windowDays: 30 } as const;

export function trendingScore(likes: number, views: number, publishedAtMs: number, nowMs: number): number {
  const ageHours = Math.max(0, (nowMs - publishedAtMs) / 3_600_000);
  return (likes + views * trending.viewWeight) / (ageHours + trending.offsetHours) ** trending.gravity;
}
