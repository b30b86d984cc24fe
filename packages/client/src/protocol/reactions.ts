/**
 * Reactions' part of the wire contract (docs/CONTRACTS.md "Reactions"): the socket frames that add
 * and remove one's own emoji reaction, the summary every joined socket gets after a change, and
 * the answer of the HTTP endpoints. Types and constants only; re-exported by `./index.ts`.
 */

/** Someone who reacted, as chips name them ("👍 2: ann, bob"). */
export interface ReactionUser {
  id: string;
  username: string;
  name: string;
}

/** One emoji on a message: how many reacted with it and who, first reaction first. */
export interface ReactionSummary {
  emoji: string;
  count: number;
  users: ReactionUser[];
}

/** Adds the caller's reaction (idempotent: adding one that is there changes nothing). */
export interface AddReactionFrame {
  type: 'add_reaction';
  message_id: string;
  emoji: string;
}

/** Removes the caller's reaction (idempotent: removing one that is not there changes nothing). */
export interface RemoveReactionFrame {
  type: 'remove_reaction';
  message_id: string;
  emoji: string;
}

/**
 * The message's whole reaction summary after a change, read in the same transaction as the
 * change. `version` grows by one with every change of this message's reactions: a client keeps
 * the highest it has seen and ignores an older summary arriving late. `updated` is the message's
 * new `updated` (the server's clock), the watermark of catching up after a reconnect.
 */
export interface ReactionsChangedFrame {
  type: 'reactions_changed';
  chat_id: string;
  message_id: string;
  reactions: ReactionSummary[];
  version: number;
  updated: string;
}

/** PUT and DELETE /api/messages/{id}/reactions/{emoji} answer the summary after the call. */
export type ReactionsAnswer = Omit<ReactionsChangedFrame, 'type'>;

export const reactionLimits = {
  /** Distinct emoji one message may carry; the next new one is refused. */
  distinctEmojiPerMessage: 20,
} as const;

/** The exact refusals of a reaction (HTTP 400 messages and the socket's invalid_reaction text). */
export const reactionTexts = {
  notOneEmoji: 'A reaction must be exactly one emoji.',
  tooMany: `A message can have at most ${reactionLimits.distinctEmojiPerMessage} different reactions.`,
} as const;
