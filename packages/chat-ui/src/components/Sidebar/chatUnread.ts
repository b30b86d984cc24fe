import type { ChatRecord } from '@confab/client';

/** What a chat list entry shows of the signed-in person's read state. */
export interface ChatUnread {
  /** Something is unread: the name is bold. */
  unread: boolean;
  /** Said after the name in the entry's accessible name: ', 3 unread, 1 mention'; '' when read. */
  spoken: string;
  /**
   * The badge: the unread count, or the mention count in the accent colour when someone mentioned
   * the person; a muted chat shows only a dot unless it has mentions.
   */
  badge: { kind: 'count' | 'mention'; text: string } | { kind: 'dot' } | null;
}

const read: ChatUnread = { unread: false, spoken: '', badge: null };

/** A count as the badge shows it: '99+' above 99, so the badge keeps its size. */
export function badgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The read state of a chat in the list (Slack-like): counts from the client's `unread_count`,
 * `mention_count` and `muted`. A chat without these fields (an older server) reads as read.
 */
export function chatUnreadOf(chat: Pick<ChatRecord, 'unread_count' | 'mention_count' | 'muted'>): ChatUnread {
  const mentions = Math.max(0, chat.mention_count ?? 0);
  // Mentions are among the unread messages; a record saying otherwise still has something unread.
  const unread = Math.max(0, chat.unread_count ?? 0, mentions);
  if (unread === 0) return read;
  const mentioned = mentions > 0 ? `, ${mentions} ${mentions === 1 ? 'mention' : 'mentions'}` : '';
  const mentionBadge = { kind: 'mention', text: badgeCount(mentions) } as const;
  if (chat.muted === true) {
    return { unread: true, spoken: `, unread${mentioned}`, badge: mentions > 0 ? mentionBadge : { kind: 'dot' } };
  }
  return { unread: true, spoken: `, ${unread} unread${mentioned}`, badge: mentions > 0 ? mentionBadge : { kind: 'count', text: badgeCount(unread) } };
}
