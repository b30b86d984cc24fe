import { timeAgo, type TimeAgoLocale } from '@confab/client';
import { useNow } from '../../internal/useNow';
import { exactDateTime, momentOf } from './dateTime';

export interface TimeAgoProps {
  /** The moment described: a PocketBase or ISO datetime, a Date or epoch milliseconds. */
  date: string | Date | number;
  locale?: TimeAgoLocale | undefined;
  /** A fixed reference time (tests, stories); by default the page's shared clock, which ticks. */
  now?: number | undefined;
  className?: string | undefined;
}

/**
 * A relative time of docs/PRODUCT.md ('5m ago', '2h ago', 'Jan 5') that keeps itself current: it
 * reads the one shared clock (useNow), so only these labels re-render on a tick, never the message
 * around them. The exact date and time is its title (on hover) and what screen readers read.
 */
export function TimeAgo({ date, locale = 'en', now, className }: TimeAgoProps) {
  const current = useNow(now);
  return (
    <TimeLabel date={date} locale={locale} className={className}>
      {timeAgo(date, { locale, now: current })}
    </TimeLabel>
  );
}

export interface TimeLabelProps {
  date: string | Date | number;
  locale?: TimeAgoLocale | undefined;
  className?: string | undefined;
  /** Words before the exact time in the title and for screen readers ('Edited'). */
  prefix?: string | undefined;
  /** What is shown: short words ('5m ago', '2:05 PM', '(edited)'). */
  children: string;
}

/**
 * A <time> showing `children`, with the machine-readable datetime, and the full date and time in
 * the chosen language as its title and, instead of the short words, for screen readers.
 */
export function TimeLabel({ date, locale = 'en', className, prefix, children }: TimeLabelProps) {
  const moment = momentOf(date);
  const valid = !Number.isNaN(moment.getTime());
  const exact = exactDateTime(moment, locale);
  const label = prefix === undefined ? exact : `${prefix} ${exact}`;
  return (
    <time className={className} dateTime={valid ? moment.toISOString() : undefined} title={valid ? label : undefined}>
      {valid ? (
        <>
          <span aria-hidden="true">{children}</span>
          <span className="cf-visually-hidden">{label}</span>
        </>
      ) : (
        children
      )}
    </time>
  );
}
