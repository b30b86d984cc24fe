import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { AgentNotice as AgentNoticeData, TimeAgoLocale } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { useVirtualRows } from '../../internal/useVirtualRows';
import { useComponents } from '../../provider/ComponentsContext';
import { AgentNotice } from '../AgentNotice/AgentNotice';
import { Message as DefaultMessage } from '../Message/Message';
import { MessageListEmpty } from './MessageListEmpty';

export interface MessageListProps {
  /** The chat's messages in order (oldest first), as the store holds them. */
  messages: readonly ClientMessage[];
  /** True while a page loads (the first one, or an older one). */
  loading?: boolean | undefined;
  /** True while older history exists; scrolling near the top then calls onLoadOlder. */
  hasOlder?: boolean | undefined;
  onLoadOlder?: (() => unknown) | undefined;
  onRetry?: ((clientId: string) => void) | undefined;
  /** The chat search: only messages containing it are shown, with the text marked. */
  filter?: string | undefined;
  /** Who the empty state welcomes. */
  userName?: string | undefined;
  locale?: TimeAgoLocale | undefined;
  /** Reference time for time-ago labels (tests and stories). */
  now?: number | undefined;
  /**
   * Agent notices for this user (store.agentNotices): each is shown after the message it is
   * about, or at the end while that message is not listed.
   */
  notices?: readonly AgentNoticeData[] | undefined;
}

/** A row of the list: a message, or a notice shown after the message it is about. */
type Row = { kind: 'message'; message: ClientMessage } | { kind: 'notice'; notice: AgentNoticeData };

/** Estimated row height before measurement; rows are measured once rendered. */
const estimatedRowPx = 76;
/** Distance from the top that starts loading older history. */
const loadOlderThresholdPx = 400;
/** Distance from the bottom still counted as "at the bottom". */
const stickThresholdPx = 48;

const keyOf = (row: Row | undefined, index: number): string | number => {
  if (row === undefined) return index;
  return row.kind === 'notice' ? `notice:${row.notice.id}` : row.message.client_id || row.message.message_id;
};

const noNotices: readonly AgentNoticeData[] = [];

/** The messages with each notice after its message; with a filter, only notices whose message shows. */
function rowsOf(items: readonly ClientMessage[], notices: readonly AgentNoticeData[], filtering: boolean): Row[] {
  if (notices.length === 0) return items.map((message) => ({ kind: 'message', message }));
  const byMessage = new Map<string, AgentNoticeData[]>();
  for (const notice of notices) byMessage.set(notice.message_id, [...(byMessage.get(notice.message_id) ?? []), notice]);
  const rows: Row[] = [];
  for (const message of items) {
    rows.push({ kind: 'message', message });
    for (const notice of byMessage.get(message.message_id) ?? []) rows.push({ kind: 'notice', notice });
    byMessage.delete(message.message_id);
  }
  if (!filtering) for (const pending of byMessage.values()) for (const notice of pending) rows.push({ kind: 'notice', notice });
  return rows;
}

function matches(message: ClientMessage, needle: string): boolean {
  return message.content.toLowerCase().includes(needle) || message.author_name.toLowerCase().includes(needle);
}

/**
 * The chat's messages, virtualised (only the rows in view are in the DOM, so 10,000 messages
 * scroll smoothly). Scrolling near the top loads older pages without moving what is on screen;
 * new messages keep the view at the bottom when it already was there.
 */
export function MessageList({
  messages,
  loading = false,
  hasOlder = false,
  onLoadOlder,
  onRetry,
  filter = '',
  userName,
  locale = 'en',
  now,
  notices = noNotices,
}: MessageListProps) {
  // Message and EmptyState are overridable through <ConfabProvider components>.
  const { Spinner, Message = DefaultMessage, EmptyState = MessageListEmpty } = useComponents();
  const scrollRef = useRef<HTMLDivElement>(null);
  const needle = filter.trim().toLowerCase();
  const hasRows = messages.length > 0;
  const items = useMemo(() => (needle === '' ? messages : messages.filter((message) => matches(message, needle))), [messages, needle]);
  const rows = useMemo(() => rowsOf(items, notices, needle !== ''), [items, notices, needle]);

  // Follow the bottom until the user scrolls away from it; only user scrolls change this.
  const stickToBottom = useRef(true);
  const latest = useRef({ hasOlder, loading, onLoadOlder, filtering: needle !== '' });
  latest.current = { hasOlder, loading, onLoadOlder, filtering: needle !== '' };
  const olderRequested = useRef(false);

  const getKey = useCallback((index: number) => keyOf(rows[index], index), [rows]);
  const { items: virtualRows, totalSize, measureElement, startOf, scrollTo, scrollToEnd, isScrolling } = useVirtualRows({
    count: rows.length,
    getKey,
    estimatedSize: estimatedRowPx,
    overscan: 8,
    scrollRef,
    // Layout-less environments (jsdom) report no viewport: assume one, so rows still render.
    initialHeight: 600,
    // A chat opens at its latest message (scrolled to the end below).
    initialAlign: 'end',
    onChange: () => {
      // Rows measured taller than estimated push the bottom down: follow it while sticking.
      if (stickToBottom.current && !isScrolling()) scrollToEnd();
    },
  });

  const requestOlder = useCallback(() => {
    const { hasOlder: more, loading: busy, onLoadOlder: load, filtering } = latest.current;
    if (!more || busy || filtering || olderRequested.current || load === undefined) return;
    olderRequested.current = true;
    Promise.resolve(load())
      .catch(() => {})
      .finally(() => {
        olderRequested.current = false;
      });
  }, []);

  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return undefined;
    const onScroll = () => {
      stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight <= stickThresholdPx;
      if (element.scrollTop < loadOlderThresholdPx) requestOlder();
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [requestOlder, hasRows]);

  // Keep the view steady when rows are prepended, and at the bottom when rows are appended.
  const previous = useRef<{ firstKey: string | number | null; lastKey: string | number | null; count: number }>({
    firstKey: null,
    lastKey: null,
    count: 0,
  });
  // A streamed reply grows without a new row: follow its growth too while at the bottom.
  const lastContent = items.at(-1)?.content;
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const firstKey = rows.length > 0 ? keyOf(rows[0], 0) : null;
    const lastKey = rows.length > 0 ? keyOf(rows[rows.length - 1], rows.length - 1) : null;
    const before = previous.current;
    previous.current = { firstKey, lastKey, count: rows.length };
    if (element === null || rows.length === 0) return;
    if (before.count === 0) {
      stickToBottom.current = true;
      scrollToEnd();
      return;
    }
    if (before.firstKey !== null && before.firstKey !== firstKey) {
      const anchorIndex = rows.findIndex((row, index) => keyOf(row, index) === before.firstKey);
      if (anchorIndex > 0) {
        // Everything above the old first row is new: move down by exactly its height.
        scrollTo(element.scrollTop + startOf(anchorIndex));
        return;
      }
    }
    if (stickToBottom.current) scrollToEnd();
  }, [rows, lastContent, scrollTo, scrollToEnd, startOf]);

  // A first page shorter than the view never scrolls, so ask for more history straight away.
  useEffect(() => {
    const element = scrollRef.current;
    if (element && element.clientHeight > 0 && element.scrollHeight <= element.clientHeight) requestOlder();
  }, [rows, hasOlder, requestOlder]);

  if (messages.length === 0) {
    return loading ? (
      <div className="cf-message-list cf-message-list--loading" role="status">
        <Spinner size={28} />
        <p>Loading messages...</p>
      </div>
    ) : (
      <EmptyState userName={userName} />
    );
  }

  return (
    <div ref={scrollRef} className="cf-message-list" role="log" aria-label="Messages" tabIndex={0}>
      {loading && hasOlder ? (
        <p className="cf-message-list__older" role="status">
          <span>Loading older messages...</span>
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="cf-message-list__no-match" role="status">
          No messages match “{filter.trim()}”
        </p>
      ) : null}
      <div className="cf-message-list__canvas" style={{ height: totalSize }}>
        {virtualRows.map((virtualRow) => {
          const row = rows[virtualRow.index];
          if (row === undefined) return null;
          return (
            <div
              key={virtualRow.key}
              ref={measureElement}
              data-index={virtualRow.index}
              className="cf-message-list__row"
              style={{ transform: `translateY(${virtualRow.start}px)` }}
            >
              {row.kind === 'notice' ? (
                <AgentNotice notice={row.notice} />
              ) : (
                <Message message={row.message} locale={locale} now={now} highlight={needle === '' ? undefined : filter} onRetry={onRetry} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
