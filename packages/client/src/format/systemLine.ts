import type { SystemLine } from '../protocol/announcements';

/**
 * The plain English fallback of a system line, stored as its content by the server: what excerpts, search,
 * notifications and clients that do not know system lines show. Clients that do render the
 * structured line in the reader's language (chat-ui's SystemLine).
 */
export function systemLineText(line: SystemLine): string {
  const actor = line.actor.name;
  const subject = line.subject?.name ?? 'someone';
  switch (line.kind) {
    case 'added':
      return `${actor} added ${subject}`;
    case 'removed':
      return `${actor} removed ${subject}`;
    case 'joined_via_link':
      return `${actor} joined via a share link`;
    case 'joined_via_invitation':
      return `${actor} joined via an invitation`;
    case 'left':
      return `${actor} left`;
    case 'renamed':
      return `${actor} renamed the chat to ${line.name ?? ''}`.trim();
  }
}
