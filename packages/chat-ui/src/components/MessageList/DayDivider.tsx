import type { TimeAgoLocale } from '@confab/client';
import { useNow } from '../../internal/useNow';
import { dayLabel } from '../Message/dateTime';

export interface DayDividerProps {
  /** The local day, 'YYYY-MM-DD'. */
  day: string;
  /** A moment of that day (its first message's time): a PocketBase or ISO datetime. */
  date: string;
  locale?: TimeAgoLocale | undefined;
  /** A fixed reference time (tests, stories); by default the shared clock, so 'Today' turns into 'Yesterday' at midnight. */
  now?: number | undefined;
}

/**
 * The line before the first message of a day: 'Today', 'Yesterday', then the date in the chosen
 * language ('Friday, January 2'; the year only when not this year). A separator named by it.
 */
export function DayDivider({ day, date, locale = 'en', now }: DayDividerProps) {
  const label = dayLabel(date, useNow(now), locale);
  return (
    <div className="cf-day-divider" role="separator" aria-label={label}>
      <time className="cf-day-divider__label" dateTime={day} aria-hidden="true">
        {label}
      </time>
    </div>
  );
}
