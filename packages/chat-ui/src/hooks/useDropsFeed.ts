import { useCallback, useEffect } from 'react';
import type { ClientState, FeedTab, WireDrop } from '@confab/client';
import { dropsOf, useDropsStore } from '../internal/dropsClient';
import { useConfabClient, useConfabStore } from '../provider/hooks';

/** What useDropsFeed gives: one feed tab as client.drops.store holds it. */
export interface DropsFeedView {
  /** The feed's drops, in the server's order (empty until page 1 has answered). */
  drops: WireDrop[];
  /** Page 1 is loading (the feed was opened or reloaded). */
  loading: boolean;
  /** Page 1 has answered: `drops`, `totalCount` and `hasMore` describe this feed. */
  loaded: boolean;
  /** A further page is loading (loadMore). */
  loadingMore: boolean;
  /** The client text of the last failed load ('Failed to fetch feed', …), null after a success. */
  error: string | null;
  /** More pages after the ones loaded. */
  hasMore: boolean;
  /** How many drops the feed has in all. */
  totalCount: number;
  /** Appends the next page while hasMore; a failure lands in `error`. */
  loadMore(): Promise<void>;
  /** Opens the feed again at page 1 (after an error). */
  reload(): Promise<void>;
  /** Following only: drops that arrived live and are not in `drops` yet, newest first. */
  newDrops: WireDrop[];
  /** Moves `newDrops` into the feed. */
  showNewDrops(): void;
}

const selectUserId = (state: ClientState) => state.user?.id ?? null;
const settle = (promise: Promise<void>) =>
  promise.then(
    () => undefined,
    // The store's feed.error carries the failure.
    () => undefined,
  );

/**
 * A drops feed ('following', 'trending', 'discover' or 'bookmarks', the Saved tab) for a host that
 * draws its own cards: opens it at page 1 through client.drops.loadFeed once a user is signed in,
 * and again when `kind` changes. The client holds one feed at a time, so use one feed per page.
 *
 * @example
 * const { drops, hasMore, loadMore } = useDropsFeed('trending');
 */
export function useDropsFeed(kind: FeedTab): DropsFeedView {
  const client = useConfabClient();
  const userId = useConfabStore(selectUserId);
  const feed = useDropsStore((state) => state.feed);
  const newDrops = useDropsStore((state) => state.newDrops);
  const reload = useCallback(() => settle(dropsOf(client).loadFeed(kind)), [client, kind]);
  const loadMore = useCallback(() => settle(dropsOf(client).loadMore()), [client]);
  const showNewDrops = useCallback(() => dropsOf(client).showNewDrops(), [client]);

  useEffect(() => {
    if (userId !== null) void reload();
  }, [reload, userId]);

  // Until loadFeed switches the store over, it may still hold another feed's drops.
  const current = feed.tab === kind;
  return {
    drops: current ? feed.drops : [],
    loading: !current || feed.loading || (feed.page === 0 && feed.error === null),
    loaded: current && feed.page > 0,
    loadingMore: current && feed.loadingMore,
    error: current ? feed.error : null,
    hasMore: current && feed.has_more,
    totalCount: current ? feed.total_count : 0,
    loadMore,
    reload,
    newDrops: kind === 'following' ? newDrops : [],
    showNewDrops,
  };
}
