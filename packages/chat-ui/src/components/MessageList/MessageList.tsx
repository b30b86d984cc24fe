import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { AgentNotice as AgentNoticeData, ClientState, TimeAgoLocale } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { useVirtualRows } from '../../internal/useVirtualRows';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabStore } from '../../provider/hooks';
import { AgentNotice } from '../AgentNotice/AgentNotice';
import { Message as DefaultMessage } from '../Message/Message';
import { DayDivider } from './DayDivider';
import { MessageListEmpty } from './MessageListEmpty';
import { MessageListJumps } from './MessageListJumps';
import { NewMessagesDivider } from './NewMessagesDivider';
import { messageActions } from './messageActions';
import { keyOf, matches, rowsOf } from './rows';
import { firstNewMessage, newMessagesPlace, readThrough } from './unread';
import { useJumpToMessage } from './useJumpToMessage';
import { useListView } from './useListView';
import { useOpenPanels } from './useOpenPanels';

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
  /**
   * The person's read position when the chat opened; keep it fixed for the visit, so the divider
   * does not move while they read. A 'New messages' divider goes above the first later message by
   * someone else, and when that is above the view at the bottom the list opens at the divider
   * instead. Null or undefined: no divider, the list opens at its latest message.
   */
  lastReadSeq?: number | null | undefined;
  /**
   * Called with the highest seq among the messages on screen whenever it changes (scrolling, new
   * rows, a resize); not while a search filters the list. ChatPage marks the chat read with it.
   */
  onMessagesSeen?: ((seq: number) => void) | undefined;
  /** Offers Reply on every stored message, called with the message (docs/CONTRACTS.md, Replies). */
  onReply?: ((message: ClientMessage) => void) | undefined;
  /** Shows "N replies" on originals, called with the original's id when pressed. */
  onOpenThread?: ((messageId: string) => void) | undefined;
  /**
   * Loads a message of the chat that is not listed yet (client.messages.reveal), so a reply's quote
   * can lead to an original far up; resolves with whether it is now held. Without it a quote leads
   * only to originals already loaded.
   */
  onRevealMessage?: ((messageId: string) => Promise<boolean>) | undefined;
  /**
   * A message to go to once the list has loaded (a notification's link, /chat/{id}?message={id}):
   * scrolled to and highlighted like a quote's original, loading older pages when needed. Once per id.
   */
  focusMessageId?: string | undefined;
}

/** Estimated row height before measurement; rows are measured once rendered. */
const estimatedRowPx = 76;
/** Distance from the top that starts loading older history. */
const loadOlderThresholdPx = 400;
/** Distance from the bottom still counted as "at the bottom". */
const stickThresholdPx = 48;
/** Room left above the divider when the list scrolls to it. */
const dividerMarginPx = 16;
/** The viewport assumed while the element reports none (jsdom, before layout). */
const initialViewportPx = 600;

const selectUserId = (state: ClientState) => state.user?.id ?? null;
const selectAdminOfChat = (state: ClientState) => (state.isCurrentUserAdmin ? (state.currentChat?.id ?? null) : null);

const noNotices: readonly AgentNoticeData[] = [];

/**
 * The chat's messages, virtualised (only the rows in view are in the DOM, so 10,000 messages
 * scroll smoothly). Scrolling near the top loads older pages without moving what is on screen;
 * new messages keep the view at the bottom when it already was there. With `lastReadSeq`, a 'New
 * messages' divider marks where the unread messages start; 'Jump to first unread' and 'Jump to
 * latest' float over the list while the divider is above the view or the view is away from the
 * bottom. A day divider ('Today', 'Yesterday', a date) opens each day, and one author's messages
 * a few minutes apart are grouped under one name and avatar (rows.ts, grouping.ts). Deleted messages are not shown; the signed-in person may edit their own messages and
 * delete them (any message, as an admin of the open chat).
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
  lastReadSeq = null,
  onMessagesSeen,
  onReply,
  onOpenThread,
  onRevealMessage,
  focusMessageId,
}: MessageListProps) {
  // Message and EmptyState are overridable through <ConfabProvider components>.
  const { Spinner, Message = DefaultMessage, EmptyState = MessageListEmpty } = useComponents();
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLDivElement>(null);
  const userId = useConfabStore(selectUserId);
  const adminOfChat = useConfabStore(selectAdminOfChat);
  const needle = filter.trim().toLowerCase();
  // A deleted message keeps its place (its seq) in the store, emptied, and is not shown. A reply
  // to one will show 'This message was deleted' in its stead, once messages have replies.
  const shown = useMemo(() => messages.filter((message) => !message.deleted_at), [messages]);
  const hasRows = shown.length > 0;
  const items = useMemo(() => (needle === '' ? shown : shown.filter((message) => matches(message, needle))), [shown, needle]);
  // The unread divider: not while searching (the rows between are hidden). It starts a new group.
  const unreadFrom = needle === '' ? lastReadSeq : null;
  const rows = useMemo(
    () => rowsOf(items, notices, { filtering: needle !== '', breakBefore: firstNewMessage(items, unreadFrom, userId) }),
    [items, notices, needle, unreadFrom, userId],
  );
  const { dividerRow, startsInOlder } = useMemo(
    () => newMessagesPlace(items, rows, unreadFrom, userId, hasOlder),
    [items, rows, unreadFrom, userId, hasOlder],
  );

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
    initialHeight: initialViewportPx,
    // A chat opens at its latest message (scrolled to the end below).
    initialAlign: 'end',
    onChange: () => {
      // Rows measured taller than estimated push the bottom down: follow it while sticking.
      if (stickToBottom.current && !isScrolling()) scrollToEnd();
      updateView();
    },
  });

  const { jumps, updateView, forgetSeen, canvasTop } = useListView({
    scrollRef,
    canvasRef,
    rows,
    dividerRow,
    filtering: needle !== '',
    startOf,
    onMessagesSeen: onMessagesSeen && ((seq) => onMessagesSeen(readThrough(seq, shown, messages))),
    bottomSlackPx: stickThresholdPx,
    fallbackViewportPx: initialViewportPx,
  });

  const { highlightedId, jumpTo } = useJumpToMessage({
    rows,
    reveal: onRevealMessage,
    scrollToRow: (index, margin) => scrollTo(canvasTop() + startOf(index) - margin),
    beforeJump: () => {
      stickToBottom.current = false;
    },
  });
  const focusedId = useRef<string | undefined>(undefined);
  const listReady = !loading && rows.length > 0;
  useEffect(() => {
    if (focusMessageId === undefined || focusMessageId === '' || !listReady || focusedId.current === focusMessageId) return;
    focusedId.current = focusMessageId;
    jumpTo(focusMessageId);
  }, [focusMessageId, listReady, jumpTo]);

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
      updateView();
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [requestOlder, updateView, hasRows]);

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
    // Another chat's rows may follow: what was seen is reported afresh.
    if (rows.length === 0) forgetSeen();
    if (element === null || rows.length === 0) return;
    if (before.count === 0) {
      // More unread than fit: open at the divider (at the top when the unread start in older history).
      const openAt = dividerRow >= 0 ? dividerRow : startsInOlder ? 0 : -1;
      const viewport = element.clientHeight > 0 ? element.clientHeight : initialViewportPx;
      if (openAt >= 0 && startOf(openAt) < startOf(rows.length) - viewport) {
        stickToBottom.current = false;
        scrollTo(canvasTop() + startOf(openAt) - dividerMarginPx);
        // Already at the top, so no scroll event will ask for the history the unread start in.
        if (startsInOlder) requestOlder();
        return;
      }
      stickToBottom.current = true;
      scrollToEnd();
      return;
    }
    if (before.firstKey !== null && before.firstKey !== firstKey) {
      const anchorIndex = rows.findIndex((row, index) => keyOf(row, index) === before.firstKey);
      if (anchorIndex > 0) {
        // Everything above the old first row is new: move down by exactly its height. (Its day
        // divider, when older messages of that day arrived, goes with it: the virtualiser keeps
        // the view in place as the row is measured shorter.)
        scrollTo(element.scrollTop + startOf(anchorIndex));
        return;
      }
    }
    if (stickToBottom.current) scrollToEnd();
    // The divider's position is read when the rows first arrive, not followed afterwards.
  }, [rows, lastContent, scrollTo, scrollToEnd, startOf, forgetSeen, requestOlder]);

  // Messages with their editor or delete question open stay rendered out of view.
  const { renderedRows, onPanelOpenChange } = useOpenPanels(virtualRows, rows, startOf);

  // After every render (new rows, measured heights, a new divider): the buttons and what is seen.
  useLayoutEffect(() => updateView());

  const jumpToFirstUnread = () => {
    if (dividerRow < 0) return;
    stickToBottom.current = false;
    scrollTo(canvasTop() + startOf(dividerRow) - dividerMarginPx);
    // The button goes once the divider is in view: keep the focus in the list.
    scrollRef.current?.focus({ preventScroll: true });
  };
  const jumpToLatest = () => {
    stickToBottom.current = true;
    scrollToEnd();
    scrollRef.current?.focus({ preventScroll: true });
  };

  // A first page shorter than the view never scrolls, so ask for more history straight away.
  useEffect(() => {
    const element = scrollRef.current;
    if (element && element.clientHeight > 0 && element.scrollHeight <= element.clientHeight) requestOlder();
  }, [rows, hasOlder, requestOlder]);

  if (!hasRows) {
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
    <div className="cf-message-list-frame">
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
        <div ref={canvasRef} className="cf-message-list__canvas" style={{ height: totalSize }}>
          {renderedRows.map((virtualRow) => {
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
                {row.kind === 'message' && row.dayStart !== null ? (
                  <DayDivider day={row.dayStart.day} date={row.dayStart.date} locale={locale} now={now} />
                ) : null}
                {virtualRow.index === dividerRow ? <NewMessagesDivider /> : null}
                {row.kind === 'notice' ? (
                  <AgentNotice notice={row.notice} />
                ) : (
                  <Message
                    message={row.message}
                    grouped={row.grouped}
                    onPanelOpenChange={onPanelOpenChange}
                    locale={locale}
                    now={now}
                    highlight={needle === '' ? undefined : filter}
                    onRetry={onRetry}
                    onReply={onReply}
                    onOpenThread={onOpenThread}
                    onJumpToMessage={jumpTo}
                    highlighted={highlightedId === row.message.message_id}
                    {...messageActions(row.message, { userId, adminOfChat })}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
      <MessageListJumps
        toFirstUnread={jumps.toFirstUnread && dividerRow >= 0}
        toLatest={jumps.toLatest}
        onJumpToFirstUnread={jumpToFirstUnread}
        onJumpToLatest={jumpToLatest}
      />
    </div>
  );
}

