import type { TimeAgoLocale } from '@confab/client';

/*
 * Dates and times in the chosen language (the `locale` prop every time label takes), spelled by
 * Intl so each language gets its own words and order. All in the viewer's time zone.
 */

const dayMs = 24 * 60 * 60_000;

/** The Intl language tag of a chat-ui locale. */
export function intlLocale(locale: TimeAgoLocale = 'en'): string {
  return locale === 'zh' ? 'zh-CN' : 'en-US';
}

/** A PocketBase or ISO datetime, a Date or epoch milliseconds as a Date (invalid when unparsable). */
export function momentOf(date: string | Date | number): Date {
  if (date instanceof Date) return date;
  // PocketBase dates use a space between date and time, which not every engine parses.
  return new Date(typeof date === 'string' ? date.trim().replace(' ', 'T') : date);
}

// Intl formatters are costly to build and a long list asks for many labels: one per language and style.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: TimeAgoLocale, name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}:${name}`;
  let found = formatters.get(key);
  if (found === undefined) {
    found = new Intl.DateTimeFormat(intlLocale(locale), options);
    formatters.set(key, found);
  }
  return found;
}

/**
 * The full date and time of `date`: 'Monday, January 5, 2026 at 2:05 PM', in Chinese
 * '2026年1月5日星期一 14:05'; '' for an unparsable date. What time labels show on hover and give
 * screen readers.
 *
 * @example exactDateTime('2026-01-05 14:05:00.000Z') // 'Monday, January 5, 2026 at 2:05 PM' in London
 */
export function exactDateTime(date: string | Date | number, locale: TimeAgoLocale = 'en'): string {
  const moment = momentOf(date);
  if (Number.isNaN(moment.getTime())) return '';
  return formatter(locale, 'exact', { dateStyle: 'full', timeStyle: 'short' }).format(moment);
}

/** The time of day alone ('2:05 PM', '14:05'); '' for an unparsable date. */
export function clockTime(date: string | Date | number, locale: TimeAgoLocale = 'en'): string {
  const moment = momentOf(date);
  if (Number.isNaN(moment.getTime())) return '';
  return formatter(locale, 'clock', { timeStyle: 'short' }).format(moment);
}

/** The local calendar day of `date` as 'YYYY-MM-DD' (null when unparsable): equal keys, same day. */
export function dayKeyOf(date: string | Date | number): string | null {
  const moment = momentOf(date);
  if (Number.isNaN(moment.getTime())) return null;
  const month = String(moment.getMonth() + 1).padStart(2, '0');
  const day = String(moment.getDate()).padStart(2, '0');
  return `${moment.getFullYear()}-${month}-${day}`;
}

/** Local midnight of the day of `moment`. */
function startOfDay(moment: Date): number {
  return new Date(moment.getFullYear(), moment.getMonth(), moment.getDate()).getTime();
}

/**
 * A day divider's words: 'Today', 'Yesterday' (the language's own, from Intl.RelativeTimeFormat),
 * then the date with its weekday ('Friday, January 2'), with the year only when not this year.
 * A day after `now` (a clock running ahead) counts as today.
 *
 * @example dayLabel('2026-01-04T09:00:00', Date.parse('2026-01-05T12:00:00'), 'zh') // '昨天'
 */
export function dayLabel(date: string | Date | number, now: number, locale: TimeAgoLocale = 'en'): string {
  const moment = momentOf(date);
  if (Number.isNaN(moment.getTime())) return '';
  const today = new Date(now);
  // Rounded: a day with a daylight-saving change is 23 or 25 hours long.
  const daysAgo = Math.round((startOfDay(today) - startOfDay(moment)) / dayMs);
  if (daysAgo <= 1) {
    const words = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(-Math.max(0, daysAgo), 'day');
    return words.charAt(0).toLocaleUpperCase(intlLocale(locale)) + words.slice(1);
  }
  const thisYear = moment.getFullYear() === today.getFullYear();
  return thisYear
    ? formatter(locale, 'day', { weekday: 'long', month: 'long', day: 'numeric' }).format(moment)
    : formatter(locale, 'day-year', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(moment);
}
