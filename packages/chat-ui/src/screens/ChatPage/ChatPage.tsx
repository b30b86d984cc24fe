import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { displayNameOf, isChatAdmin, toConfabError, type ClientState, type TimeAgoLocale } from '@confab/client';
import { AgentStatusBar } from '../../components/AgentStatusBar/AgentStatusBar';
import { Button } from '../../components/Button/Button';
import { ChatFilesPanel } from '../../components/ChatFilesPanel/ChatFilesPanel';
import { ChatHeader } from '../../components/ChatHeader/ChatHeader';
import { CreateDropModal } from '../../components/CreateDropModal/CreateDropModal';
import { MessageInput } from '../../components/MessageInput/MessageInput';
import { MessageList } from '../../components/MessageList/MessageList';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { messagesOf } from '../../internal/chatClient';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';
import { useTitleFlash } from './useTitleFlash';

export interface ChatPageProps {
  /** The chat of /chat/{id}. */
  chatId: string;
  /** Time-ago language; default 'en'. */
  locale?: TimeAgoLocale;
  /** Appended to the chat name in document.title; default ' - Confab'. */
  titleSuffix?: string;
  /**
   * Replaces what the header's Chat Files button does. Without it the page opens its own
   * ChatFilesPanel.
   */
  onOpenFiles?: () => void;
  /**
   * Replaces what the header's Create a Drop button does. Without it the page opens its own
   * CreateDropModal, which opens the new drop at /drops/{slug}.
   */
  onCreateDrop?: () => void;
  /**
   * A first message to send once the chat has opened (a chat started from the agent search,
   * spec §7: e.g. '@drops create a summary drop about our recent discussion'); sent once.
   */
  initialMessage?: string;
  /** Called after initialMessage was sent, so the host can forget it (e.g. clear navigation state). */
  onInitialMessageSent?: () => void;
}

type LoadProblem = { kind: 'not-found' } | { kind: 'error'; message: string } | null;

const selectCurrentChat = (state: ClientState) => state.currentChat;
const selectMessages = (state: ClientState) => state.messages;
const selectLoading = (state: ClientState) => state.loadingMessages;
const selectHasOlder = (state: ClientState) => state.hasOlderMessages;
const selectUser = (state: ClientState) => state.user;
const selectAgentStatuses = (state: ClientState) => state.agentStatuses;
const selectAgentNotices = (state: ClientState) => state.agentNotices;

/**
 * /chat/{id}: header, messages and input. Opens the chat through client.messages.open (latest
 * page, then live), keeps document.title '<name> - Confab', and flashes '(n) New messages!' while
 * the tab is hidden and messages arrive.
 */
export function ChatPage({
  chatId,
  locale = 'en',
  titleSuffix = ' - Confab',
  onOpenFiles,
  onCreateDrop,
  initialMessage,
  onInitialMessageSent,
}: ChatPageProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const currentChat = useConfabStore(selectCurrentChat);
  const allMessages = useConfabStore(selectMessages);
  const loading = useConfabStore(selectLoading);
  const hasOlder = useConfabStore(selectHasOlder);
  const user = useConfabStore(selectUser);
  const allStatuses = useConfabStore(selectAgentStatuses);
  const allNotices = useConfabStore(selectAgentNotices);
  const knownChat = useConfabStore((state) => state.chats.find((chat) => chat.id === chatId) ?? null);
  const [problem, setProblem] = useState<LoadProblem>(null);
  const [search, setSearch] = useState('');
  const [attempt, setAttempt] = useState(0);
  // The chat whose files panel is open; switching chats closes it.
  const [filesPanelChat, setFilesPanelChat] = useState<string | null>(null);
  // The chat whose Create a Drop modal is open; switching chats closes it.
  const [dropModalChat, setDropModalChat] = useState<string | null>(null);
  // Bumped on every finished upload, so an open panel lists the new file.
  const [filesRevision, setFilesRevision] = useState(0);
  // The first message is sent once per chat, however often the page renders or re-opens.
  const initialSentFor = useRef<string | null>(null);

  const userId = user?.id ?? null;
  useEffect(() => {
    // Opening needs a session (the record API answers 401 otherwise); it runs again once signed in.
    if (userId === null) return undefined;
    let active = true;
    setProblem(null);
    setSearch('');
    messagesOf(client)
      .open(chatId)
      .then(() => {
        const first = initialMessage?.trim() ?? '';
        if (!active || first === '' || initialSentFor.current === chatId) return;
        initialSentFor.current = chatId;
        messagesOf(client).send(chatId, first);
        onInitialMessageSent?.();
      })
      .catch((error: unknown) => {
        const failure = toConfabError(error);
        if (!active || failure.isAbort) return;
        // The record API answers 404 both for a missing chat and for one the user is not in.
        setProblem(failure.status === 404 || failure.status === 403 ? { kind: 'not-found' } : { kind: 'error', message: failure.message });
      });
    return () => {
      active = false;
      // Leaving the page leaves the chat: no more live messages for it, no stale currentChat.
      messagesOf(client).closeChat(chatId);
    };
    // initialMessage is read when the chat opens, not followed afterwards.
  }, [client, chatId, attempt, userId]);

  const chat = currentChat?.id === chatId ? currentChat : knownChat;
  // Until open() switches the store over, it may still hold the previous chat's messages.
  const messages = useMemo(() => allMessages.filter((message) => message.chat_id === chatId), [allMessages, chatId]);
  const statuses = useMemo(() => allStatuses.filter((line) => line.chat_id === chatId), [allStatuses, chatId]);
  const notices = useMemo(() => allNotices.filter((notice) => notice.chat_id === chatId), [allNotices, chatId]);
  const lastFromOthers = useMemo(() => {
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index];
      if (message && message.author_id !== user?.id) return message.message_id;
    }
    return null;
  }, [messages, user?.id]);
  useTitleFlash({ title: chat ? `${chat.name}${titleSuffix}` : `Confab`, latestMessageKey: lastFromOthers });

  const loadOlder = useCallback(() => messagesOf(client).loadOlder(chatId), [client, chatId]);
  const retry = useCallback((clientId: string) => messagesOf(client).retry(clientId), [client]);
  const send = useCallback((content: string) => void messagesOf(client).send(chatId, content), [client, chatId]);
  const openFiles = useCallback(() => setFilesPanelChat(chatId), [chatId]);
  const closeFiles = useCallback(() => setFilesPanelChat(null), []);
  const openCreateDrop = useCallback(() => setDropModalChat(chatId), [chatId]);
  const closeCreateDrop = useCallback(() => setDropModalChat(null), []);
  const fileUploaded = useCallback(() => setFilesRevision((revision) => revision + 1), []);

  if (problem?.kind === 'not-found') {
    return (
      <div className="cf-chat">
        <PageHeader title="Chat not found" />
        <div className="cf-empty" role="alert">
          <h2>Chat not found</h2>
          <p>This chat does not exist, or you are not one of its participants.</p>
          <Button onClick={() => navigate('/chat')}>Back to chats</Button>
        </div>
      </div>
    );
  }
  if (problem?.kind === 'error') {
    return (
      <div className="cf-chat">
        <PageHeader title={chat?.name ?? 'Chat'} />
        <div className="cf-empty" role="alert">
          <h2>Failed to load this chat</h2>
          <p>{problem.message}</p>
          <Button onClick={() => setAttempt((count) => count + 1)}>Try again</Button>
        </div>
      </div>
    );
  }

  return (
    <div className="cf-chat">
      {chat ? (
        <ChatHeader
          chat={chat}
          searchQuery={search}
          onSearchChange={setSearch}
          onOpenFiles={onOpenFiles ?? openFiles}
          onCreateDrop={onCreateDrop ?? openCreateDrop}
          canInvite={isChatAdmin(chat, user?.id)}
        />
      ) : (
        <PageHeader title="Loading chat..." />
      )}
      <MessageList
        messages={messages}
        loading={loading || chat === null}
        hasOlder={hasOlder}
        onLoadOlder={loadOlder}
        onRetry={retry}
        filter={search}
        userName={user ? displayNameOf(user) : undefined}
        locale={locale}
        notices={notices}
      />
      <AgentStatusBar statuses={statuses} />
      {/* Keyed by chat: the draft and the upload list belong to one chat (uploads under way still finish). */}
      <MessageInput key={chatId} chatId={chatId} onSend={send} disabled={chat === null} onFileUploaded={fileUploaded} />
      {filesPanelChat === chatId ? <ChatFilesPanel chatId={chatId} onClose={closeFiles} refreshKey={filesRevision} locale={locale} /> : null}
      {dropModalChat === chatId && chat ? <CreateDropModal chatId={chatId} chatName={chat.name} onClose={closeCreateDrop} /> : null}
    </div>
  );
}
