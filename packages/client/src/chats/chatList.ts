import type { ChatActivityFrame, ChatReadState } from '../protocol';
import type { ChatRecord } from '../types';

/*
 * Pure updates of store.chats. The list stays sorted by -updated like the record API answers it,
 * so a renamed or newly added chat moves to the top.
 */

/** The signed-in person's fields of a chat record: realtime chat frames (the same for every member) carry none. */
const readStateFields = ['last_read_seq', 'unread_count', 'mention_count', 'muted', 'notify_level'] as const;

export function upsertChat(chats: ChatRecord[], incoming: ChatRecord): ChatRecord[] {
  const known = chats.find((listed) => listed.id === incoming.id);
  let chat = incoming;
  if (known !== undefined) {
    // Keep what the incoming record does not say: the read state, and a newer last_seq or updated.
    const merged: Record<string, unknown> = { ...incoming };
    for (const field of readStateFields) if (merged[field] === undefined && known[field] !== undefined) merged[field] = known[field];
    chat = merged as unknown as ChatRecord;
    if ((known.last_seq ?? 0) > (chat.last_seq ?? 0)) chat.last_seq = known.last_seq;
    if (known.updated > chat.updated) chat.updated = known.updated;
    chat.unread_count = unreadOf(chat);
  }
  const others = chats.filter((listed) => listed.id !== chat.id);
  const index = others.findIndex((listed) => listed.updated <= chat.updated);
  if (index === -1) return [...others, chat];
  return [...others.slice(0, index), chat, ...others.slice(index)];
}

export function removeChat(chats: ChatRecord[], chatId: string): ChatRecord[] {
  return chats.some((chat) => chat.id === chatId) ? chats.filter((chat) => chat.id !== chatId) : chats;
}

/** Unread messages by the positions, when both are known (never below 0). */
function unreadOf(chat: ChatRecord): number | undefined {
  if (chat.last_seq === undefined || chat.last_read_seq === undefined) return chat.unread_count;
  return Math.max(0, chat.last_seq - chat.last_read_seq);
}

/** The server's read state of a chat (read_state, or an answer of /read or /mute); the order is unchanged. */
export function applyReadState(chats: ChatRecord[], state: ChatReadState): ChatRecord[] {
  const index = chats.findIndex((chat) => chat.id === state.chat_id);
  if (index === -1) return chats;
  const known = chats[index]!;
  // An older answer arriving after a newer one never moves the position back.
  if ((known.last_read_seq ?? 0) > state.last_read_seq) return chats;
  const next: ChatRecord = {
    ...known,
    last_read_seq: state.last_read_seq,
    unread_count: state.unread_count,
    mention_count: state.mention_count,
    muted: state.muted,
    ...(state.notify_level === undefined ? {} : { notify_level: state.notify_level }),
    last_seq: Math.max(known.last_seq ?? 0, state.last_read_seq + state.unread_count),
  };
  return [...chats.slice(0, index), next, ...chats.slice(index + 1)];
}

/** A message stored in a chat of the list: its counts grow (not for the person's own), and it rises to the top. */
export function applyActivity(chats: ChatRecord[], activity: ChatActivityFrame, me: string | undefined): ChatRecord[] {
  const known = chats.find((chat) => chat.id === activity.chat_id);
  if (known === undefined || (known.last_seq ?? 0) >= activity.seq) return chats;
  const mine = activity.author_id === me;
  const lastRead = mine ? Math.max(known.last_read_seq ?? 0, activity.seq) : known.last_read_seq;
  const next: ChatRecord = {
    ...known,
    last_seq: activity.seq,
    updated: activity.updated > known.updated ? activity.updated : known.updated,
    ...(lastRead === undefined ? {} : { last_read_seq: lastRead }),
    unread_count: lastRead === undefined ? (known.unread_count ?? 0) + (mine ? 0 : 1) : Math.max(0, activity.seq - lastRead),
    mention_count: mine ? 0 : (known.mention_count ?? 0) + (activity.mentions_you ? 1 : 0),
  };
  return upsertChat(chats, next);
}
