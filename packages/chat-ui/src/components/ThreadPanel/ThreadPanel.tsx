import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { TimeAgoLocale } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { Message } from '../Message/Message';
import { ThreadComposer } from './ThreadComposer';

export interface ThreadPanelProps {
  /** The thread's first message; null while it loads or when it is gone. */
  original: ClientMessage | null;
  /** Its replies in order (loaded, live and pending ones: `threadReplies` of @confab/client). */
  replies: readonly ClientMessage[];
  loading?: boolean | undefined;
  /** Why the thread could not be loaded, shown as an alert. */
  error?: string | null | undefined;
  /** Sends a reply to the original from the thread's own input. */
  onSend: (content: string) => void;
  onClose: () => void;
  onRetry?: ((clientId: string) => void) | undefined;
  locale?: TimeAgoLocale | undefined;
  /** Fixed reference time for time-ago (tests and stories). */
  now?: number | undefined;
}

/**
 * A message's replies beside the chat (docs/CONTRACTS.md, Replies): a side panel on wide screens,
 * a bottom sheet below 640px. The focus moves into it when it opens and back to its opener when it
 * closes; Escape or Close closes it.
 * Its input answers the original, so the conversation goes on here.
 */
export function ThreadPanel({ original, replies, loading = false, error = null, onSend, onClose, onRetry, locale = 'en', now }: ThreadPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Whatever opened it ("N replies") gets the focus back when it closes, if it is still there.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    headingRef.current?.focus();
    return () => {
      if (opener?.isConnected === true) opener.focus();
    };
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    event.stopPropagation();
    onClose();
  };
  const count = replies.length;
  return (
    <aside className="cf-thread" aria-label="Thread" onKeyDown={onKeyDown}>
      <header className="cf-thread__header">
        <h2 ref={headingRef} tabIndex={-1} className="cf-thread__title">
          Thread
        </h2>
        <button type="button" className="cf-thread__close" aria-label="Close thread" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="cf-thread__body">
        {error !== null ? (
          <p className="cf-thread__error" role="alert">
            {error}
          </p>
        ) : null}
        {original !== null ? <Message message={original} locale={locale} now={now} /> : null}
        {loading ? (
          <p className="cf-thread__status" role="status">
            Loading replies...
          </p>
        ) : (
          <p className="cf-thread__count">{count === 0 ? 'No replies yet' : count === 1 ? '1 reply' : `${count} replies`}</p>
        )}
        <ol className="cf-thread__replies" aria-label="Replies">
          {replies.map((reply) => (
            <li key={reply.message_id}>
              <Message message={reply} locale={locale} now={now} onRetry={onRetry} />
            </li>
          ))}
        </ol>
      </div>
      <ThreadComposer onSend={onSend} disabled={original === null} />
    </aside>
  );
}
