import { timeAgo, type TimeAgoLocale } from '@confab/client';
import { useNow } from '../../internal/useNow';

export interface TimeAgoProps {
  /** The moment described: a PocketBase or ISO datetime, a Date or epoch milliseconds. */
  date: string | Date | number;
  locale?: TimeAgoLocale | undefined;
  /** A fixed reference time (tests, stories); by default the page's shared clock, which ticks. */
  now?: number | undefined;
  className?: string | undefined;
}

/**
 * A relative time of docs/PRODUCT.md §9 ('5m ago', '2h ago', 'Jan 5') that keeps itself current: it
 * reads the one shared clock (useNow), so only these labels re-render on a tick, never the message
 * around them.
 */
export function TimeAgo({ date, locale = 'en', now, className }: TimeAgoProps) {
  const current = useNow(now);
  const dateTime = typeof date === 'string' ? date : new Date(date).toISOString();
  return (
    <time className={className} dateTime={dateTime}>
      {timeAgo(date, { locale, now: current })}
    </time>
  );
}
