export type TimeAgoLocale = 'en' | 'zh';

export interface TimeAgoOptions {
  /** Defaults to 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** The reference time; defaults to the current time. Pass it in tests. */
  now?: Date | number | undefined;
}

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
const weekMs = 7 * dayMs;

const shortMonthsEn = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Relative date of docs/PRODUCT.md §9: under an hour 'Nm ago', under a day 'Nh ago', under 7 days
 * 'Nd ago', otherwise a short month and day ('Jan 5'); in Chinese 'N分钟前', 'N小时前',
 * 'N天前', '1月5日'. Future times count as now. Returns '' for an unparsable date.
 *
 * @example timeAgo('2026-01-05 12:00:00.000Z', { now: Date.parse('2026-01-05T12:05:00Z') }) // '5m ago'
 */
export function timeAgo(date: string | Date | number, options: TimeAgoOptions = {}): string {
  const time = parseDate(date);
  if (Number.isNaN(time)) return '';
  const now = options.now === undefined ? Date.now() : Number(options.now);
  const elapsedMs = Math.max(0, now - time);
  const chinese = options.locale === 'zh';
  if (elapsedMs < hourMs) {
    const minutes = Math.floor(elapsedMs / minuteMs);
    return chinese ? `${minutes}分钟前` : `${minutes}m ago`;
  }
  if (elapsedMs < dayMs) {
    const hours = Math.floor(elapsedMs / hourMs);
    return chinese ? `${hours}小时前` : `${hours}h ago`;
  }
  if (elapsedMs < weekMs) {
    const days = Math.floor(elapsedMs / dayMs);
    return chinese ? `${days}天前` : `${days}d ago`;
  }
  // Month and day in the viewer's time zone, spelled without Intl so output is stable everywhere.
  const calendarDate = new Date(time);
  const month = calendarDate.getMonth();
  const day = calendarDate.getDate();
  return chinese ? `${month + 1}月${day}日` : `${shortMonthsEn[month] ?? ''} ${day}`;
}

/** PocketBase dates use a space between date and time, which not every engine parses. */
function parseDate(date: string | Date | number): number {
  if (date instanceof Date) return date.getTime();
  if (typeof date === 'number') return date;
  return Date.parse(date.trim().replace(' ', 'T'));
}
