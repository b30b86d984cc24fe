import type { TimeAgoLocale } from '@confab/client';
import { TimeLabel } from './TimeAgo';

// Kept here too: the exact time used to live in this file.
export { exactDateTime } from './dateTime';

export interface EditedMarkProps {
  /** When the message was last edited: a PocketBase or ISO datetime. */
  date: string;
  locale?: TimeAgoLocale | undefined;
}

/**
 * '(edited)' after a message's time. The exact time of the edit is its title (shown on hover) and
 * what screen readers read instead of the bare mark: 'Edited Monday, January 5, 2026 at 2:05 PM'.
 */
export function EditedMark({ date, locale = 'en' }: EditedMarkProps) {
  return (
    <TimeLabel className="cf-message__edited" date={date} locale={locale} prefix="Edited">
      (edited)
    </TimeLabel>
  );
}
