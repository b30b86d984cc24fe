import { useCallback, useEffect, useMemo, useState } from 'react';
import { toConfabError, type ChatRecord, type ClientMessage, type ClientState, type ConnectionState } from '@confab/client';
import { messagesOf } from '../internal/chatClient';
import { useConfabClient, useConfabStore } from '../provider/hooks';

/** What useChat gives: one chat, opened live, with everything a message view needs. */
export interface ChatState {
  /** The chat's record once known (from the chat list or the open), else null. */
  chat: ChatRecord | null;
  /** Its messages, oldest first: confirmed ones by seq, then pending and failed ones. */
  messages: ClientMessage[];
  /** True while a page of messages loads (the first one, or an older one). */
  loading: boolean;
  /** True once the chat has opened (its latest page is in `messages` and it is live). */
  opened: boolean;
  /** The message of a failed open, null otherwise (a missing chat sets `notFound` instead). */
  error: string | null;
  /** The chat does not exist, or the user is not one of its participants. */
  notFound: boolean;
  /** True while there are messages older than the first one loaded. */
  hasOlder: boolean;
  /** Prepends the page before the oldest loaded message (concurrent calls share one request). */
  loadOlder(): Promise<void>;
  /**
   * Sends optimistically: the returned message is in `messages` at once with status 'pending',
   * then 'sent' or 'failed'. Throws a ConfabError for empty content or without a user.
   */
  send(content: string, options?: { replyTo?: string | undefined }): ClientMessage;
  /** Sends a failed message again (same client_id, so the server never stores it twice). */
  retry(clientId: string): void;
  /** Opens the chat again (after an error). */
  reload(): void;
  /** The live connection: 'idle' | 'connecting' | 'connected' | 'closed'. */
  connectionState: ConnectionState;
}

type OpenResult = { chatId: string; attempt: number; outcome: 'opened' | 'not-found' | { error: string } };

const selectCurrentChat = (state: ClientState) => state.currentChat;
const selectMessages = (state: ClientState) => state.messages;
const selectLoading = (state: ClientState) => state.loadingMessages;
const selectHasOlder = (state: ClientState) => state.hasOlderMessages;
const selectConnection = (state: ClientState) => state.connectionState;
const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * One chat for a host that draws its own message view: opens it through client.messages.open
 * (latest page, then live) once a user is signed in, and closes it on unmount or when chatId
 * changes. One chat is open at a time (the client's store holds the open chat's messages), so
 * use it once per page, as ChatPage does.
 *
 * @example
 * const { messages, send, loadOlder, hasOlder, connectionState } = useChat(chatId);
 */
export function useChat(chatId: string): ChatState {
  const client = useConfabClient();
  const currentChat = useConfabStore(selectCurrentChat);
  const allMessages = useConfabStore(selectMessages);
  const storeLoading = useConfabStore(selectLoading);
  const hasOlderInStore = useConfabStore(selectHasOlder);
  const connectionState = useConfabStore(selectConnection);
  const userId = useConfabStore(selectUserId);
  const knownChat = useConfabStore((state) => state.chats.find((chat) => chat.id === chatId) ?? null);
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<OpenResult | null>(null);

  useEffect(() => {
    // Opening needs a session (the record API answers 401 otherwise); it runs again once signed in.
    if (userId === null) return undefined;
    let active = true;
    messagesOf(client)
      .open(chatId)
      .then(() => {
        if (active) setResult({ chatId, attempt, outcome: 'opened' });
      })
      .catch((error: unknown) => {
        const failure = toConfabError(error);
        if (!active || failure.isAbort) return;
        // The record API answers 404 both for a missing chat and for one the user is not in.
        const outcome = failure.status === 404 || failure.status === 403 ? 'not-found' : { error: failure.message };
        setResult({ chatId, attempt, outcome });
      });
    return () => {
      active = false;
      // Leaving the chat: no more live messages for it, no stale currentChat.
      messagesOf(client).closeChat(chatId);
    };
  }, [client, chatId, attempt, userId]);

  // A result belongs to one chat and one attempt: a new chat or a reload starts afresh.
  const outcome = result !== null && result.chatId === chatId && result.attempt === attempt ? result.outcome : null;
  const isOpen = currentChat?.id === chatId;
  // Until open() switches the store over, it may still hold the previous chat's messages.
  const messages = useMemo(() => allMessages.filter((message) => message.chat_id === chatId), [allMessages, chatId]);
  const loadOlder = useCallback(() => messagesOf(client).loadOlder(chatId).then(() => undefined), [client, chatId]);
  const send = useCallback(
    // Without a reply, the two-argument call a host's own messages service has always had.
    (content: string, options?: { replyTo?: string | undefined }) =>
      options?.replyTo === undefined ? messagesOf(client).send(chatId, content) : messagesOf(client).send(chatId, content, { replyTo: options.replyTo }),
    [client, chatId],
  );
  const retry = useCallback((clientId: string) => messagesOf(client).retry(clientId), [client]);
  const reload = useCallback(() => setAttempt((count) => count + 1), []);

  return {
    chat: isOpen ? currentChat : knownChat,
    messages,
    loading: outcome === null || (isOpen && storeLoading),
    opened: outcome === 'opened' && isOpen,
    error: outcome !== null && typeof outcome === 'object' ? outcome.error : null,
    notFound: outcome === 'not-found',
    hasOlder: isOpen && hasOlderInStore,
    loadOlder,
    send,
    retry,
    reload,
    connectionState,
  };
}
