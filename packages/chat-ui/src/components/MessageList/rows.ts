import type { AgentNotice as AgentNoticeData } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';

/** A row of the list: a message, or a notice shown after the message it is about. */
export type Row = { kind: 'message'; message: ClientMessage } | { kind: 'notice'; notice: AgentNoticeData };

export const keyOf = (row: Row | undefined, index: number): string | number => {
  if (row === undefined) return index;
  return row.kind === 'notice' ? `notice:${row.notice.id}` : row.message.client_id || row.message.message_id;
};

/** The messages with each notice after its message; with a filter, only notices whose message shows. */
export function rowsOf(items: readonly ClientMessage[], notices: readonly AgentNoticeData[], filtering: boolean): Row[] {
  if (notices.length === 0) return items.map((message) => ({ kind: 'message', message }));
  const byMessage = new Map<string, AgentNoticeData[]>();
  for (const notice of notices) byMessage.set(notice.message_id, [...(byMessage.get(notice.message_id) ?? []), notice]);
  const rows: Row[] = [];
  for (const message of items) {
    rows.push({ kind: 'message', message });
    for (const notice of byMessage.get(message.message_id) ?? []) rows.push({ kind: 'notice', notice });
    byMessage.delete(message.message_id);
  }
  if (!filtering) for (const pending of byMessage.values()) for (const notice of pending) rows.push({ kind: 'notice', notice });
  return rows;
}

export function matches(message: ClientMessage, needle: string): boolean {
  return message.content.toLowerCase().includes(needle) || message.author_name.toLowerCase().includes(needle);
}
