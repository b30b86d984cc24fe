import type { ClientMessage } from '../../internal/chatClient';
import type { Row } from './rows';

/*
 * Where the 'New messages' divider goes, and which messages are on screen: pure helpers of the
 * message list, over its rows and the virtualiser's row offsets (`startOf`).
 */

/**
 * Index in `messages` of the first new one: the first message after `lastReadSeq` by someone
 * other than `userId` (the person's own messages are never new). -1 when there is none.
 */
export function firstNewIndex(messages: readonly ClientMessage[], lastReadSeq: number, userId: string | null): number {
  return messages.findIndex((message) => message.seq !== null && message.seq > lastReadSeq && (userId === null || message.author_id !== userId));
}

/**
 * Where the 'New messages' divider goes: the row of the first new message (-1: none). When the
 * first loaded message is new and older ones exist, the new ones may start in history not loaded
 * yet: no divider until it is (`startsInOlder`).
 */
export function newMessagesPlace(
  items: readonly ClientMessage[],
  rows: readonly Row[],
  lastReadSeq: number | null,
  userId: string | null,
  hasOlder: boolean,
): { dividerRow: number; startsInOlder: boolean } {
  const first = lastReadSeq === null ? -1 : firstNewIndex(items, lastReadSeq, userId);
  if (first === -1 || (first === 0 && hasOlder)) return { dividerRow: -1, startsInOlder: first === 0 };
  const message = items[first];
  return { dividerRow: rows.findIndex((row) => row.kind === 'message' && row.message === message), startsInOlder: false };
}

/** Largest row index whose start is at or above `offset` (0 without rows): a binary search over the offsets. */
export function rowAt(startOf: (index: number) => number, count: number, offset: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (startOf(middle) <= offset) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * The highest seq among the messages on screen, the view being [top, bottom) in canvas pixels; a
 * message counts once all of it is in view (or it fills the view). Null when none is.
 */
export function highestSeqInView(rows: readonly Row[], startOf: (index: number) => number, top: number, bottom: number): number | null {
  let highest: number | null = null;
  for (let index = rowAt(startOf, rows.length, Math.max(0, top)); index < rows.length; index += 1) {
    const start = startOf(index);
    const end = startOf(index + 1);
    if (start >= bottom) break;
    const row = rows[index];
    // A pixel of slack each side: measured heights are fractional.
    const seen = (start >= top - 1 && end <= bottom + 1) || (start <= top && end >= bottom);
    if (seen && row?.kind === 'message' && row.message.seq !== null && row.message.seq > (highest ?? 0)) highest = row.message.seq;
  }
  return highest;
}

/**
 * What seeing the message `seq` reads, `shown` being the messages listed and `all` the chat's:
 * deleted messages after the last one listed are never on screen, so seeing that one reads them
 * too (a chat whose latest message was deleted would stay unread otherwise).
 */
export function readThrough(seq: number, shown: readonly ClientMessage[], all: readonly ClientMessage[]): number {
  const last = all.at(-1)?.seq ?? null;
  return last !== null && seq === shown.at(-1)?.seq ? Math.max(seq, last) : seq;
}

/**
 * The message the 'New messages' divider would go above (null: none), for the rows to start a
 * new group there; `lastReadSeq` null (no divider, or a search) gives null.
 */
export function firstNewMessage(items: readonly ClientMessage[], lastReadSeq: number | null, userId: string | null): ClientMessage | null {
  return lastReadSeq === null ? null : (items[firstNewIndex(items, lastReadSeq, userId)] ?? null);
}
