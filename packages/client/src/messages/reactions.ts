import type { ReactionsAnswer, ReactionSummary, ReactionUser } from '../protocol';
import type { ClientMessage } from '../types';

/*
 * The store's side of reactions (docs/CONTRACTS.md, Reactions): pure functions over
 * store.messages. A message's summary is replaced only by one with a higher version, so a late
 * frame never undoes a newer one; the caller's own click shows at once, before the server's
 * summary replaces it.
 */

/** The message with this summary and version (no `reactions` key when the summary is empty). */
export function withReactions(message: ClientMessage, reactions: ReactionSummary[], version: number): ClientMessage {
  const { reactions: _old, ...rest } = message;
  const next: ClientMessage = reactions.length > 0 ? { ...rest, reactions } : rest;
  if (version > 0) next.reactions_version = version;
  return next;
}

/**
 * Applies a server summary (a reactions_changed frame or an endpoint's answer) to the message it
 * names. `sameVersionToo`: an answer at the version held is the server's truth for it and replaces
 * an optimistic guess; a frame must be newer. Returns the same array when nothing changed.
 */
export function applyReactionSummary(current: ClientMessage[], summary: ReactionsAnswer, sameVersionToo = false): ClientMessage[] {
  const index = current.findIndex((message) => message.message_id === summary.message_id && message.seq !== null);
  const held = current[index];
  if (held === undefined || held.deleted_at !== undefined) return current;
  const heldVersion = held.reactions_version ?? 0;
  if (summary.version < heldVersion || (summary.version === heldVersion && !sameVersionToo)) return current;
  const next = [...current];
  next[index] = withReactions(held, summary.reactions, summary.version);
  return next;
}

/** The summary after `user` adds (`on`) or removes their `emoji`, as the server will answer it. */
export function toggledSummary(reactions: readonly ReactionSummary[], user: ReactionUser, emoji: string, on: boolean): ReactionSummary[] {
  const existing = reactions.find((reaction) => reaction.emoji === emoji);
  const mine = existing?.users.some((each) => each.id === user.id) === true;
  if (on === mine) return [...reactions];
  if (on) {
    if (existing === undefined) return [...reactions, { emoji, count: 1, users: [user] }];
    return reactions.map((reaction) => (reaction === existing ? { emoji, count: reaction.count + 1, users: [...reaction.users, user] } : reaction));
  }
  return reactions
    .map((reaction) => (reaction === existing ? { emoji, count: reaction.count - 1, users: reaction.users.filter((each) => each.id !== user.id) } : reaction))
    .filter((reaction) => reaction.count > 0);
}

/** Whether `userId` has reacted to the message with `emoji`. */
export function hasReacted(message: Pick<ClientMessage, 'reactions'>, userId: string, emoji: string): boolean {
  return message.reactions?.some((reaction) => reaction.emoji === emoji && reaction.users.some((user) => user.id === userId)) === true;
}
