import type { AgentNotice as AgentNoticeData } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { dayKeyOf } from '../Message/dateTime';
import { continuesGroup } from './grouping';

/** The first message of a local day: `day` is 'YYYY-MM-DD', `date` that message's time. */
export interface DayStart {
  day: string;
  date: string;
}

/**
 * A row of the list: a message, or a notice shown after the message it is about. A message row
 * `grouped` under the one above shows no avatar or name; one with `dayStart` opens its day, with
 * the day divider at its top (inside the row, like the 'New messages' divider, so rows and their
 * offsets stay one per message and notice).
 */
export type Row = { kind: 'message'; message: ClientMessage; grouped: boolean; dayStart: DayStart | null } | { kind: 'notice'; notice: AgentNoticeData };

export const keyOf = (row: Row | undefined, index: number): string | number => {
  if (row === undefined) return index;
  return row.kind === 'notice' ? `notice:${row.notice.id}` : row.message.client_id || row.message.message_id;
};

export interface RowsOptions {
  /** A search filters the messages: only notices whose message shows, and no grouping (the rows between are hidden). */
  filtering?: boolean | undefined;
  /** The message the 'New messages' divider goes above: it starts a new group. */
  breakBefore?: ClientMessage | null | undefined;
}

/**
 * The list's rows: each message, marked when it opens a day and when it is grouped (grouping.ts),
 * each notice after its message; notices whose message is not listed go at the end. A day
 * divider, a notice or the 'New messages' divider between two messages breaks their group.
 */
export function rowsOf(items: readonly ClientMessage[], notices: readonly AgentNoticeData[], options: RowsOptions = {}): Row[] {
  const { filtering = false, breakBefore = null } = options;
  const byMessage = new Map<string, AgentNoticeData[]>();
  for (const notice of notices) byMessage.set(notice.message_id, [...(byMessage.get(notice.message_id) ?? []), notice]);
  const rows: Row[] = [];
  let day: string | null = null;
  let previous: ClientMessage | null = null;
  for (const message of items) {
    // An unparsable date, or one before the day above (a clock behind the server's), stays in
    // the day above: days only move forward, so each day has one divider.
    const messageDay = dayKeyOf(message.created_at);
    let dayStart: DayStart | null = null;
    if (messageDay !== null && (day === null || messageDay > day)) {
      dayStart = { day: messageDay, date: message.created_at };
      day = messageDay;
    }
    const grouped = !filtering && dayStart === null && previous !== null && message !== breakBefore && continuesGroup(previous, message);
    rows.push({ kind: 'message', message, grouped, dayStart });
    previous = message;
    for (const notice of byMessage.get(message.message_id) ?? []) {
      rows.push({ kind: 'notice', notice });
      previous = null;
    }
    byMessage.delete(message.message_id);
  }
  if (!filtering) for (const pending of byMessage.values()) for (const notice of pending) rows.push({ kind: 'notice', notice });
  return rows;
}

export function matches(message: ClientMessage, needle: string): boolean {
  return message.content.toLowerCase().includes(needle) || message.author_name.toLowerCase().includes(needle);
}
