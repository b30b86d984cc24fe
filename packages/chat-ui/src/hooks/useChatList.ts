import { useCallback, useEffect } from 'react';
import type { ChatRecord, ClientState } from '@confab/client';
import { chatsOf } from '../internal/chatClient';
import { useConfabClient, useConfabStore } from '../provider/hooks';

/** What useChatList gives: the signed-in user's chats as the client store holds them. */
export interface ChatListState {
  /** The user's chats (client.store `chats`), kept current by the client's live updates. */
  chats: ChatRecord[];
  /** True while the list loads. */
  loading: boolean;
  /** The message of the last failed load, null after a success. */
  error: string | null;
  /** Loads the list again (after an error, say); a failure lands in `error`. */
  reload(): Promise<void>;
}

const selectChats = (state: ClientState) => state.chats;
const selectLoading = (state: ClientState) => state.chatsLoading;
const selectError = (state: ClientState) => state.chatsError;
const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * The signed-in user's chats, for a host that draws its own chat list. Loads them through
 * client.chats.list() once a user is signed in (again when the user changes); joins, leaves,
 * renames and new messages arrive through the client's store.
 *
 * @example
 * const { chats, loading, error, reload } = useChatList();
 * if (error) return <button onClick={reload}>Try again</button>;
 * return <ul>{chats.map((chat) => <li key={chat.id}>{chat.name}</li>)}</ul>;
 */
export function useChatList(): ChatListState {
  const client = useConfabClient();
  const chats = useConfabStore(selectChats);
  const loading = useConfabStore(selectLoading);
  const error = useConfabStore(selectError);
  const userId = useConfabStore(selectUserId);
  const reload = useCallback(
    () =>
      chatsOf(client)
        .list()
        // chatsError in the store carries the failure.
        .then(
          () => undefined,
          () => undefined,
        ),
    [client],
  );
  useEffect(() => {
    if (userId !== null) void reload();
  }, [reload, userId]);
  return { chats, loading, error, reload };
}
