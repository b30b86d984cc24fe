import type { ClientMessage } from '../../internal/chatClient';
import { dayKeyOf, momentOf } from '../Message/dateTime';

/** How long after a message the same author's next one still joins its group: 5 minutes. */
export const groupWindowMs = 5 * 60_000;

/*
 * Which message types are a person or agent writing, shown under their name and avatar and so
 * able to group. Anything else (a 'system' line such as "Ann added Bob", or a type this version
 * does not know) stands on its own.
 */
const authoredTypes: ReadonlySet<string> = new Set(['regular', 'file', 'email', 'search']);

/** True for a message that can join a group or start one. */
export function groupable(message: ClientMessage): boolean {
  return authoredTypes.has(message.message_type || 'regular');
}

/**
 * Whether `message` continues the group of `previous`, the message right above it: the same
 * author (an agent and a person never share a group), on the same local day, at most
 * `groupWindowMs` later, both authored messages. A failed message keeps its header, so its error
 * and Retry are not mistaken for the message above. Dividers and notices between the two are the
 * caller's to check: they always break a group.
 *
 * @example continuesGroup(bobAt('12:00'), bobAt('12:04:59')) // true; at 12:05:01, false
 */
export function continuesGroup(previous: ClientMessage, message: ClientMessage): boolean {
  if (!groupable(previous) || !groupable(message)) return false;
  if (previous.author_id !== message.author_id || Boolean(previous.is_agent) !== Boolean(message.is_agent)) return false;
  if (previous.status === 'failed' || message.status === 'failed') return false;
  const before = momentOf(previous.created_at).getTime();
  const after = momentOf(message.created_at).getTime();
  if (Number.isNaN(before) || Number.isNaN(after)) return false;
  // Clocks differ a little between a pending message and the server's: a small step back still groups.
  if (Math.abs(after - before) > groupWindowMs) return false;
  return dayKeyOf(previous.created_at) === dayKeyOf(message.created_at);
}
