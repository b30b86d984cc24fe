import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { displayNameOf, isChatAdmin, type ClientState, type TimeAgoLocale } from '@confab/client';
import { AgentStatusBar } from '../../components/AgentStatusBar/AgentStatusBar';
import { Button } from '../../components/Button/Button';
import { ChatHeader as DefaultChatHeader, type ChatHeaderPart } from '../../components/ChatHeader/ChatHeader';
import { MessageInput as DefaultMessageInput } from '../../components/MessageInput/MessageInput';
import { MessageList } from '../../components/MessageList/MessageList';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { TypingIndicator } from '../../components/TypingIndicator/TypingIndicator';
import { useChat } from '../../hooks/useChat';
import { LazyChatFilesPanel, LazyCreateDropModal, LazyDialog } from '../../internal/lazyParts';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore, useDocumentTitleEnabled, useNavigate } from '../../provider/hooks';
import { useChatPresence } from './useChatPresence';
import { ReplyBanner } from '../../components/ReplyBanner/ReplyBanner';
import type { ClientMessage } from '../../internal/chatClient';
import { messagesOf } from '../../internal/chatClient';
import { ChatThread } from './ChatThread';
import { useMarkRead } from './useMarkRead';
import { useReadPositionAtOpen } from './useReadPositionAtOpen';
import { useTitleFlash } from './useTitleFlash';

export interface ChatPageProps {
  /** The chat of /chat/{id}. */
  chatId: string;
  /** Time-ago language; default 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** Appended to the chat name in document.title; default ' - Confab'. */
  titleSuffix?: string | undefined;
  /**
   * Replaces what the header's Chat Files button does. Without it the page opens its own
   * ChatFilesPanel.
   */
  onOpenFiles?: (() => void) | undefined;
  /**
   * Replaces what the header's Create a Drop button does. Without it the page opens its own
   * CreateDropModal, which opens the new drop at /drops/{slug}.
   */
  onCreateDrop?: (() => void) | undefined;
  /**
   * A first message to send once the chat has opened (a chat started from the agent search,
   * docs/PRODUCT.md §7: e.g. '@drops create a summary drop about our recent discussion'); sent
   * once.
   */
  initialMessage?: string | undefined;
  /** Called after initialMessage was sent, so the host can forget it (e.g. clear navigation state). */
  onInitialMessageSent?: (() => void) | undefined;
  /** A message to open the chat at (a notification's `?message=` link): scrolled to and highlighted once. */
  focusMessageId?: string | undefined;
}

const selectUser = (state: ClientState) => state.user;
const selectAgentStatuses = (state: ClientState) => state.agentStatuses;
const selectAgentNotices = (state: ClientState) => state.agentNotices;

/**
 * /chat/{id}: header, messages and input. Opens the chat through client.messages.open (latest
 * page, then live), with a 'New messages' divider where the unread messages started when it
 * opened, and marks the chat read as messages are seen on screen in a visible tab. With the
 * provider's `documentTitle` it keeps document.title '<name> - Confab' and flashes '(n) New
 * messages!' while the tab is hidden and messages arrive, and puts the title it found back when
 * it goes.
 */
export function ChatPage({
  chatId,
  locale = 'en',
  titleSuffix = ' - Confab',
  onOpenFiles,
  onCreateDrop,
  initialMessage,
  onInitialMessageSent,
  focusMessageId,
}: ChatPageProps) {
  const navigate = useNavigate();
  // The header and the input are overridable through <ConfabProvider components>.
  const { ChatHeader = DefaultChatHeader, MessageInput = DefaultMessageInput } = useComponents();
  // Opening, paging, sending and retrying are the headless useChat's; the page adds the rest.
  const { chat, messages, loading, opened, error, notFound, hasOlder, loadOlder, send: sendMessage, retry, reload } = useChat(chatId);
  const user = useConfabStore(selectUser);
  const allStatuses = useConfabStore(selectAgentStatuses);
  const allNotices = useConfabStore(selectAgentNotices);
  const [search, setSearch] = useState('');
  // The chat whose files panel is open; switching chats closes it.
  const [filesPanelChat, setFilesPanelChat] = useState<string | null>(null);
  // The chat whose Create a Drop modal is open; switching chats closes it.
  const [dropModalChat, setDropModalChat] = useState<string | null>(null);
  // Bumped on every finished upload, so an open panel lists the new file.
  const [filesRevision, setFilesRevision] = useState(0);
  // The message a reply is being written to, in this chat (docs/CONTRACTS.md, Replies).
  const [replyingTo, setReplyingTo] = useState<ClientMessage | null>(null);
  const client = useConfabClient();
  const threads = messagesOf(client);
  // The first message is sent once per chat, however often the page renders or re-opens.
  const initialSentFor = useRef<string | null>(null);

  // A new chat starts with an empty search.
  useEffect(() => {
    setSearch('');
    setReplyingTo(null);
  }, [chatId]);

  useEffect(() => {
    const first = initialMessage?.trim() ?? '';
    if (!opened || first === '' || initialSentFor.current === chatId) return;
    initialSentFor.current = chatId;
    sendMessage(first);
    onInitialMessageSent?.();
    // initialMessage is read when the chat opens, not followed afterwards.
  }, [opened, chatId, sendMessage]);

  const statuses = useMemo(() => allStatuses.filter((line) => line.chat_id === chatId), [allStatuses, chatId]);
  const notices = useMemo(() => allNotices.filter((notice) => notice.chat_id === chatId), [allNotices, chatId]);
  const lastFromOthers = useMemo(() => {
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index];
      if (message && message.author_id !== user?.id) return message.message_id;
    }
    return null;
  }, [messages, user?.id]);
  const { typists, people, typing } = useChatPresence(chatId, chat, opened);
  const lastReadSeq = useReadPositionAtOpen(chatId, chat, opened);
  const messagesSeen = useMarkRead(chatId);
  const documentTitle = useDocumentTitleEnabled();
  useTitleFlash({ title: chat ? `${chat.name}${titleSuffix}` : `Confab`, latestMessageKey: lastFromOthers, enabled: documentTitle });

  const replyTo = replyingTo?.chat_id === chatId ? replyingTo : null;
  const send = useCallback(
    (content: string) => {
      void sendMessage(content, replyTo === null ? undefined : { replyTo: replyTo.message_id });
      setReplyingTo(null);
    },
    [sendMessage, replyTo],
  );
  const sendInThread = useCallback((content: string, options: { replyTo: string }) => void sendMessage(content, options), [sendMessage]);
  const startReply = useCallback((message: ClientMessage) => {
    setReplyingTo(message);
    // The input takes the reply at once.
    setTimeout(() => document.querySelector<HTMLElement>('.cf-chat__composer textarea')?.focus(), 0);
  }, []);
  const cancelReply = useCallback(() => setReplyingTo(null), []);
  const openThread = useMemo(() => (threads.openThread === undefined ? undefined : (messageId: string) => void threads.openThread?.(messageId)), [threads]);
  const closeThread = useCallback(() => threads.closeThread?.(), [threads]);
  const reveal = useMemo(() => (threads.reveal === undefined ? undefined : (messageId: string) => threads.reveal?.(messageId) ?? Promise.resolve(false)), [threads]);
  const openFiles = useCallback(() => setFilesPanelChat(chatId), [chatId]);
  const closeFiles = useCallback(() => setFilesPanelChat(null), []);
  const openCreateDrop = useCallback(() => setDropModalChat(chatId), [chatId]);
  const closeCreateDrop = useCallback(() => setDropModalChat(null), []);
  const fileUploaded = useCallback(() => setFilesRevision((revision) => revision + 1), []);
  // The panel and the modal load on demand; the header asks for them ahead when a button is pointed at or focused.
  const prefetch = useCallback(
    (part: ChatHeaderPart) => {
      if (part === 'files' && onOpenFiles === undefined) void LazyChatFilesPanel.preload();
      if (part === 'createDrop' && onCreateDrop === undefined) void LazyCreateDropModal.preload();
    },
    [onOpenFiles, onCreateDrop],
  );

  if (notFound) {
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
  if (error !== null) {
    return (
      <div className="cf-chat">
        <PageHeader title={chat?.name ?? 'Chat'} />
        <div className="cf-empty" role="alert">
          <h2>Failed to load this chat</h2>
          <p>{error}</p>
          <Button onClick={reload}>Try again</Button>
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
          onPrefetch={prefetch}
          people={people}
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
        lastReadSeq={lastReadSeq}
        onMessagesSeen={messagesSeen}
        onReply={startReply}
        onOpenThread={openThread}
        onRevealMessage={reveal}
        focusMessageId={focusMessageId}
      />
      <TypingIndicator typists={typists} />
      <AgentStatusBar statuses={statuses} />
      {replyTo !== null ? <ReplyBanner authorName={replyTo.author_name || replyTo.author_username} onCancel={cancelReply} /> : null}
      {/* Keyed by chat: the draft and the upload list belong to one chat (uploads under way still finish). */}
      <div
        className="cf-chat__composer"
        onKeyDown={(event) => {
          // Escape cancels the reply, unless the input used it (closing the agent list).
          if (event.key === 'Escape' && replyTo !== null && !event.defaultPrevented) cancelReply();
        }}
      >
        <MessageInput key={chatId} chatId={chatId} onSend={send} disabled={chat === null} onFileUploaded={fileUploaded} onTyping={typing} />
      </div>
      <ChatThread messages={messages} send={sendInThread} onRetry={retry} onClose={closeThread} locale={locale} />
      {filesPanelChat === chatId ? (
        <LazyDialog loadingLabel="Loading files..." failedLabel="The files panel could not be loaded." className="cf-files-panel" onClose={closeFiles}>
          <LazyChatFilesPanel.Component chatId={chatId} onClose={closeFiles} refreshKey={filesRevision} locale={locale} />
        </LazyDialog>
      ) : null}
      {dropModalChat === chatId && chat ? (
        <LazyDialog loadingLabel="Loading Create a Drop..." failedLabel="Create a Drop could not be loaded." className="cf-create-drop" onClose={closeCreateDrop}>
          <LazyCreateDropModal.Component chatId={chatId} chatName={chat.name} onClose={closeCreateDrop} />
        </LazyDialog>
      ) : null}
    </div>
  );
}
