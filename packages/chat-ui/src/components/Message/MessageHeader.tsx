import { avatarColor, type TimeAgoLocale } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { clockTime } from './dateTime';
import { EditedMark } from './EditedMark';
import { TimeAgo, TimeLabel } from './TimeAgo';

/** Who wrote `message`, as shown and read: 'Deep (Agent)' for agents. */
export function authorLabelOf(message: ClientMessage): string {
  const author = message.author_name || message.author_username || 'Unknown';
  return `${author}${message.is_agent ? ' (Agent)' : ''}`;
}

interface HeaderProps {
  message: ClientMessage;
  /** Under the same author's message above: no avatar, no visible name. */
  grouped: boolean;
}

/** The author's initial on their colour (green for agents); an empty gutter of its width when grouped. */
export function MessageAvatar({ message, grouped }: HeaderProps) {
  if (grouped) return <span className="cf-message__gutter" aria-hidden="true" />;
  const author = message.author_name || message.author_username || 'Unknown';
  return (
    <span className="cf-avatar cf-message__avatar" aria-hidden="true" style={{ backgroundColor: avatarColor(message.author_id, message.is_agent === true) }}>
      {author.charAt(0).toUpperCase()}
    </span>
  );
}

interface MetaProps extends HeaderProps {
  locale: TimeAgoLocale;
  now: number | undefined;
}

/**
 * The line above the body: author, 'Agent', time-ago, '(edited)'. Grouped, the author is read but
 * not shown and the time of day sits in the avatar's place, seen on hover and focus (as in
 * Slack); every time carries the exact date and time as its title and for screen readers.
 */
export function MessageMeta({ message, grouped, locale, now }: MetaProps) {
  const edited = message.edited_at ? <EditedMark date={message.edited_at} locale={locale} /> : null;
  if (grouped) {
    return (
      <div className="cf-message__meta cf-message__meta--grouped">
        {/* Read, not shown: a screen reader never loses who wrote it. */}
        <span className="cf-visually-hidden">{authorLabelOf(message)}</span>
        <TimeLabel className="cf-message__time cf-message__time--gutter" date={message.created_at} locale={locale}>
          {clockTime(message.created_at, locale)}
        </TimeLabel>
        {edited}
      </div>
    );
  }
  return (
    <div className="cf-message__meta">
      <span className="cf-message__author">{message.author_name || message.author_username || 'Unknown'}</span>
      {message.is_agent ? <span className="cf-badge cf-badge--agent">Agent</span> : null}
      <TimeAgo className="cf-message__time" date={message.created_at} locale={locale} now={now} />
      {edited}
    </div>
  );
}
