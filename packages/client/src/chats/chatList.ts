import type { ChatRecord } from '../types';

/*
 * Pure updates of store.chats. The list stays sorted by -updated like the record API answers it,
 * so a renamed or newly added chat moves to the top.
 */

export function upsertChat(chats: ChatRecord[], chat: ChatRecord): ChatRecord[] {
  const others = chats.filter((listed) => listed.id !== chat.id);
  const index = others.findIndex((listed) => listed.updated <= chat.updated);
  if (index === -1) return [...others, chat];
  return [...others.slice(0, index), chat, ...others.slice(index)];
}

export function removeChat(chats: ChatRecord[], chatId: string): ChatRecord[] {
  return chats.some((chat) => chat.id === chatId) ? chats.filter((chat) => chat.id !== chatId) : chats;
}
