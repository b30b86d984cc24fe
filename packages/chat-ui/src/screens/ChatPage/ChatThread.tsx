import { useMemo } from 'react';
import { threadReplies, type ClientState, type TimeAgoLocale } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { ThreadPanel } from '../../components/ThreadPanel/ThreadPanel';
import { useConfabStore } from '../../provider/hooks';

export interface ChatThreadProps {
  /** The open chat's messages (live replies and the original's count come from here). */
  messages: readonly ClientMessage[];
  send: (content: string, options: { replyTo: string }) => void;
  onRetry: (clientId: string) => void;
  onClose: () => void;
  locale?: TimeAgoLocale | undefined;
}

const selectThread = (state: ClientState) => state.thread;

/** The thread open beside the chat (store.thread), bound to the store: loaded replies merged with live ones. */
export function ChatThread({ messages, send, onRetry, onClose, locale }: ChatThreadProps) {
  const thread = useConfabStore(selectThread);
  const originalId = thread?.original_id ?? '';
  // The original as the chat holds it now (its count moves live), else as the thread loaded it.
  const original = useMemo(() => messages.find((message) => message.message_id === originalId) ?? thread?.original ?? null, [messages, originalId, thread?.original]);
  const replies = useMemo(() => threadReplies(thread?.replies ?? [], messages as ClientMessage[], originalId), [thread?.replies, messages, originalId]);
  if (thread === null) return null;
  return (
    <ThreadPanel
      original={original}
      replies={replies}
      loading={thread.loading}
      error={thread.error}
      onSend={(content) => send(content, { replyTo: originalId })}
      onClose={onClose}
      onRetry={onRetry}
      locale={locale}
    />
  );
}
