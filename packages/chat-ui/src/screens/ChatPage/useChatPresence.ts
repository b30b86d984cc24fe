import { useCallback, useEffect, useMemo } from 'react';
import { displayNameOf, isAgentUser, type ChatRecord, type ClientState, type Typist, type UserRecord } from '@confab/client';
import type { PeopleStripPerson } from '../../components/PeopleStrip/PeopleStrip';
import { useConfabClient, useConfabStore } from '../../provider/hooks';

const noTypists: readonly Typist[] = [];
const selectTypists = (state: ClientState) => state.typists;
const selectOnline = (state: ClientState) => state.onlineUserIds;

/** The chat's participants as the people strip shows them, online or not. */
export function peopleOf(chat: Pick<ChatRecord, 'participants' | 'expand'> | null, onlineUserIds: readonly string[]): PeopleStripPerson[] {
  if (chat === null) return [];
  const online = new Set(onlineUserIds);
  const expanded = new Map((chat.expand?.participants ?? []).map((user: UserRecord) => [user.id, user]));
  return chat.participants.map((id) => {
    const person = expanded.get(id);
    return { id, name: person ? displayNameOf(person) : id, online: online.has(id), isAgent: isAgentUser(person) };
  });
}

/**
 * Typing and presence of the open chat (docs/CONTRACTS.md, Typing and presence): who else types,
 * the people with who is online (loaded once the chat is open, then live), and `typing` for the
 * message input. A host client without `presence` shows nobody typing and nobody online.
 */
export function useChatPresence(chatId: string, chat: ChatRecord | null, opened: boolean) {
  const client = useConfabClient();
  const presence = client.presence;
  const typists = useConfabStore(selectTypists)[chatId] ?? noTypists;
  const onlineUserIds = useConfabStore(selectOnline);
  useEffect(() => {
    // Best effort: without the answer the strip shows nobody online, and frames still come.
    if (opened) presence?.loadChat(chatId).catch(() => {});
  }, [presence, chatId, opened]);
  const typing = useCallback(() => void presence?.typing(chatId), [presence, chatId]);
  const people = useMemo(() => peopleOf(chat, onlineUserIds), [chat, onlineUserIds]);
  return { typists, people, typing };
}
