import { memo } from 'react';
import type { SystemLine as SystemLineData, TimeAgoLocale } from '@confab/client';
import { TimeAgo } from '../Message/TimeAgo';
import { systemLineLabel } from './systemLineLabel';

export interface SystemLineProps {
  /** The structured change (a system message's `system`); without a known one, `fallback` shows. */
  line?: SystemLineData | undefined;
  /** The message's content: the server's plain English text, for a line this version does not know. */
  fallback: string;
  /** When it happened (the message's created_at). */
  createdAt?: string | undefined;
  locale?: TimeAgoLocale | undefined;
  /** Fixed reference time for the time-ago (tests and stories). */
  now?: number | undefined;
}

/**
 * A membership or settings change shown in the chat: a centred, muted line of its own, not a
 * message bubble, with no actions ("ann added bob", "bob joined via a share link", "bob left",
 * "ann renamed the chat to …"). Plain text only: names are never read as markdown.
 */
export const SystemLine = memo(function SystemLine({ line, fallback, createdAt, locale = 'en', now }: SystemLineProps) {
  const text = (line !== undefined ? systemLineLabel(line, locale) : undefined) ?? fallback;
  return (
    <div className="cf-system-line" role="note" aria-label={text}>
      <span className="cf-system-line__text">{text}</span>
      {createdAt ? (
        <>
          {' · '}
          <TimeAgo className="cf-system-line__time" date={createdAt} locale={locale} now={now} />
        </>
      ) : null}
    </div>
  );
});
