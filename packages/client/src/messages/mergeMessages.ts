import type { ReplyPreview } from '../protocol';
import type { ClientMessage, ThreadState } from '../types';
import { withReactions } from './reactions';

/*
 * store.messages holds the confirmed messages in seq order, then the unconfirmed ones (pending
 * or failed, seq null) in the order they were sent. These pure functions keep it that way.
 */

/**
 * Merges confirmed messages (from a page, a replay or live) into the list: a seq already held
 * is ignored, and an unconfirmed message with the same client_id is replaced by its confirmation.
 * Returns the same array when nothing changed, so subscribers do not re-render.
 */
export function mergeMessages(current: ClientMessage[], incoming: ClientMessage[]): ClientMessage[] {
  const arriving = incoming.filter((message) => message.seq !== null);
  if (arriving.length === 0) return current;
  const confirmed = current.filter((message) => message.seq !== null);
  const held = new Set(confirmed.map((message) => message.seq));
  const confirmedClientIds = new Set(arriving.map((message) => message.client_id));
  confirmedClientIds.delete(undefined);
  const unconfirmed = current.filter((message) => message.seq === null && !confirmedClientIds.has(message.client_id));
  const added: ClientMessage[] = [];
  for (const message of arriving) {
    if (held.has(message.seq)) continue;
    held.add(message.seq);
    added.push(message);
  }
  if (added.length === 0 && unconfirmed.length === current.length - confirmed.length) return current;
  const lastHeld = confirmed.at(-1)?.seq ?? 0;
  added.sort(bySeq);
  // The common case (a live message, a newer page) appends; only older pages and gaps need a sort.
  const firstAdded = added[0]?.seq ?? Number.POSITIVE_INFINITY;
  const merged = firstAdded > lastHeld ? [...confirmed, ...added] : [...confirmed, ...added].sort(bySeq);
  return [...merged, ...unconfirmed];
}

/** The time of a message's latest change: its deletion, else its last edit, else its creation. */
export function changedAt(message: Pick<ClientMessage, 'created_at' | 'edited_at' | 'deleted_at'>): string {
  return message.deleted_at ?? message.edited_at ?? message.created_at;
}

/**
 * Applies edits and deletions (message_updated, message_deleted, or records that changed while
 * away) to the messages held, matched by seq. An older version never replaces a newer one, and a
 * deletion is final. Messages not held are left out (merge new ones with mergeMessages). Returns
 * the same array when nothing changed.
 */
/**
 * What a reply quotes of its original (format/replyExcerpt's replyPreviewOf). Passed in rather than
 * imported: it reads markdown with marked, which the client's first load leaves out.
 */
export type QuoteOf = (original: { message_id: string; author_name: string; content: string; deleted: boolean }) => ReplyPreview;

export function changeMessages(current: ClientMessage[], changed: ClientMessage[], quoteOf?: QuoteOf): ClientMessage[] {
  const bySeqChanged = new Map(changed.filter((message) => message.seq !== null).map((message) => [message.seq, message]));
  if (bySeqChanged.size === 0) return current;
  let next: ClientMessage[] | null = null;
  current.forEach((held, index) => {
    const incoming = held.seq === null ? undefined : bySeqChanged.get(held.seq);
    if (incoming === undefined || held.deleted_at !== undefined || incoming.message_id !== held.message_id) return;
    const newerContent = changedAt(incoming) > changedAt(held) || incoming.deleted_at !== undefined;
    const newerReactions = (incoming.reactions_version ?? 0) > (held.reactions_version ?? 0);
    // A new reply moves the count without changing the text (counts only grow).
    const replyCount = Math.max(held.reply_count ?? 0, incoming.reply_count ?? 0);
    const countMoved = replyCount !== (held.reply_count ?? 0);
    // A file message's file deleted since: final, like a deletion (it moves no time of the message).
    const fileGone = incoming.file?.deleted === true && held.file?.deleted !== true;
    if (!newerContent && !newerReactions && !countMoved && !fileGone) return;
    next ??= [...current];
    // The held message keeps what only the client knows (its client_id, a stream it completed).
    const content = newerContent ? { content: incoming.content, ...pick(incoming, 'edited_at'), ...pick(incoming, 'deleted_at') } : {};
    const updated = { ...held, ...content, ...(countMoved ? { reply_count: replyCount } : {}), ...(fileGone ? { file: incoming.file } : {}) };
    next[index] = newerReactions ? withReactions(updated, incoming.reactions ?? [], incoming.reactions_version ?? 0) : updated;
  });
  return quoteOf === undefined ? (next ?? current) : refreshQuotes(next ?? current, changed, quoteOf);
}

/**
 * Edits and deletions applied to what the open thread loaded (replies older than the chat's loaded
 * pages, and an original the chat does not hold), so a reply deleted while the thread is open
 * goes at once. Returns the same thread when nothing it holds changed.
 */
export function changeThread(thread: ThreadState | null, changed: ClientMessage[]): ThreadState | null {
  if (thread === null) return null;
  const replies = changeMessages(thread.replies, changed);
  const original = thread.original === null ? null : (changeMessages([thread.original], changed)[0] ?? null);
  return replies === thread.replies && original === thread.original ? thread : { ...thread, replies, original };
}

/**
 * Replies held whose original was edited or deleted quote it anew (the server makes no frame for
 * each reply: the client that holds them knows the original's new text).
 */
function refreshQuotes(current: ClientMessage[], changed: ClientMessage[], quoteOf: QuoteOf): ClientMessage[] {
  const originals = new Map(changed.filter((message) => message.edited_at !== undefined || message.deleted_at !== undefined).map((message) => [message.message_id, message]));
  if (originals.size === 0) return current;
  let next: ClientMessage[] | null = null;
  current.forEach((held, index) => {
    const original = held.reply_to === undefined ? undefined : originals.get(held.reply_to);
    if (original === undefined || held.reply_to_preview === undefined) return;
    const preview = quoteOf({ message_id: original.message_id, author_name: held.reply_to_preview.author_name, content: original.content, deleted: original.deleted_at !== undefined });
    next ??= [...current];
    next[index] = { ...held, reply_to_preview: preview };
  });
  return next ?? current;
}

function pick<Key extends 'edited_at' | 'deleted_at'>(message: ClientMessage, key: Key): Partial<Pick<ClientMessage, Key>> {
  return message[key] === undefined ? {} : ({ [key]: message[key] } as Partial<Pick<ClientMessage, Key>>);
}

/** Replaces the message with this client_id (pending or failed) by update(message). */
export function updateUnconfirmed(
  current: ClientMessage[],
  clientId: string,
  update: (message: ClientMessage) => ClientMessage,
): ClientMessage[] {
  const index = current.findIndex((message) => message.seq === null && message.client_id === clientId);
  if (index === -1) return current;
  const next = [...current];
  next[index] = update(current[index] as ClientMessage);
  return next;
}

/** The lowest seq held, the keyset of the next older page. */
export function oldestSeq(messages: ClientMessage[]): number | null {
  return messages.find((message) => message.seq !== null)?.seq ?? null;
}

/** The highest seq such that every message from `from` + 1 up to it is held. */
export function contiguousSeq(messages: ClientMessage[], from: number): number {
  let seq = from;
  for (const message of messages) {
    if (message.seq === null || message.seq <= seq) continue;
    if (message.seq !== seq + 1) break;
    seq = message.seq;
  }
  return seq;
}

function bySeq(left: ClientMessage, right: ClientMessage): number {
  return (left.seq ?? 0) - (right.seq ?? 0);
}
