import { timeAgo, type TimeAgoLocale } from '@confab/client';

export interface EditedMarkProps {
  /** When the message was last edited: a PocketBase or ISO datetime. */
  date: string;
  locale?: TimeAgoLocale | undefined;
}

/**
 * The exact date and time of `date` in the viewer's time zone: 'Jan 5, 2026 at 2:05 PM', in
 * Chinese '2026年1月5日 14:05'; '' for an unparsable date.
 *
 * @example exactDateTime('2026-01-05 14:05:00.000Z') // 'Jan 5, 2026 at 2:05 PM' in London
 */
export function exactDateTime(date: string, locale: TimeAgoLocale = 'en'): string {
  // PocketBase dates use a space between date and time, which not every engine parses.
  const moment = new Date(date.replace(' ', 'T'));
  // The day as the time labels spell it ('Jan 5', '1月5日'): timeAgo's date for anything older
  // than a week, '' for an unparsable date.
  const day = timeAgo(moment, { locale, now: Infinity });
  const hours = moment.getHours();
  const minutes = `:${String(moment.getMinutes()).padStart(2, '0')}`;
  if (day === '') return day;
  if (locale === 'zh') return `${moment.getFullYear()}年${day} ${hours}${minutes}`;
  return `${day}, ${moment.getFullYear()} at ${hours % 12 || 12}${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/**
 * '(edited)' after a message's time. The exact time of the edit is its title (shown on hover) and
 * what screen readers read instead of the bare mark.
 */
export function EditedMark({ date, locale = 'en' }: EditedMarkProps) {
  const label = `Edited ${exactDateTime(date, locale)}`;
  return (
    <span className="cf-message__edited" title={label}>
      <span aria-hidden="true">(edited)</span>
      <span className="cf-visually-hidden">{label}</span>
    </span>
  );
}
