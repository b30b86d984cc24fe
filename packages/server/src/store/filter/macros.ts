import type { MacroName } from './ast';

/** The storage format of date fields and what the SDK sends for a Date: `YYYY-MM-DD HH:MM:SS.sssZ`. */
export function formatDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ');
}

const dayMs = 24 * 60 * 60 * 1000;

/** The value of a datetime macro at `now`, in UTC like PocketBase. */
export function macroValue(name: MacroName, now: Date): string {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  switch (name) {
    case '@now': return formatDateTime(now);
    case '@yesterday': return formatDateTime(new Date(now.getTime() - dayMs));
    case '@tomorrow': return formatDateTime(new Date(now.getTime() + dayMs));
    case '@todayStart': return formatDateTime(new Date(Date.UTC(year, month, day)));
    case '@todayEnd': return formatDateTime(new Date(Date.UTC(year, month, day + 1) - 1));
    case '@monthStart': return formatDateTime(new Date(Date.UTC(year, month, 1)));
    // Day 1 of the next month minus 1 ms: no month-length table needed.
    case '@monthEnd': return formatDateTime(new Date(Date.UTC(year, month + 1, 1) - 1));
    case '@yearStart': return formatDateTime(new Date(Date.UTC(year, 0, 1)));
    case '@yearEnd': return formatDateTime(new Date(Date.UTC(year + 1, 0, 1) - 1));
  }
}
