import { useEffect, useMemo, useRef } from 'react';
import { constants, countLabel, messages, type ClientState, type FeedTab, type TimeAgoLocale } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { DropCard } from '../../components/DropCard/DropCard';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useDocumentTitle } from '../../internal/useDocumentTitle';
import { useDropsFeed } from '../../hooks/useDropsFeed';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { DiscoverChats } from './DiscoverChats';
import { FeedTabs } from './FeedTabs';
import { useKeepFocusInFeed } from './useKeepFocusInFeed';

export interface DropsFeedScreenProps {
  /** The open tab (the route: /drops, /drops/trending, /drops/discover, /drops/bookmarks); default 'following'. */
  tab?: FeedTab | undefined;
  /** Relative-date language; default 'en'. */
  locale?: TimeAgoLocale | undefined;
  /** Appended to 'Drops' in document.title; default ' - Confab'. */
  titleSuffix?: string | undefined;
}

/** The status line of docs/PRODUCT.md §2 Drops feed ('1 drop …', '2 drops …'), and the Saved tab's. */
export function feedStatusLine(tab: FeedTab, count: number): string {
  const drops = countLabel(count, 'drop');
  if (tab === 'trending') return `${drops} trending now`;
  if (tab === 'discover') return `${drops} to discover`;
  if (tab === 'bookmarks') return countLabel(count, 'saved drop');
  return `${drops} from chats you follow`;
}

const emptyTexts: Record<FeedTab, { title: string; hint?: string }> = {
  following: { title: messages.noFollowedDrops, hint: messages.noFollowedDropsHint },
  trending: { title: messages.noTrendingDrops },
  discover: { title: messages.noDiscoverDrops },
  bookmarks: { title: messages.noSavedDrops, hint: messages.noSavedDropsHint },
};

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * /drops, /drops/trending, /drops/discover (docs/PRODUCT.md §2 Drops feed) and /drops/bookmarks
 * (Saved, the drops one bookmarked): tabs (each opens at page 1), the status line, the drops as
 * cards, Load More Drops while there are more, 'Failed to load drops' with Try again, the
 * notifications badge on Following and its live 'New drops'; Discover also lists chats to follow.
 * A drop un-bookmarked on Saved leaves the list (client.drops.toggleBookmark).
 */
export function DropsFeedScreen({ tab = constants.defaultFeedTab, locale = 'en', titleSuffix = ' - Confab' }: DropsFeedScreenProps) {
  const client = useConfabClient();
  const { Spinner } = useComponents();
  const userId = useConfabStore(selectUserId);
  // The feed itself (opening it, paging, new drops) is the headless useDropsFeed's.
  const feed = useDropsFeed(tab);
  const notificationCount = useDropsStore((state) => state.notificationCount);
  useDocumentTitle(`Drops${titleSuffix}`);

  useEffect(() => {
    if (userId === null || tab !== 'discover') return;
    dropsOf(client).discoverChats().catch(() => {});
  }, [client, tab, userId]);

  useEffect(() => {
    if (userId === null) return;
    dropsOf(client).notifications().catch(() => {});
  }, [client, userId]);

  const { loaded, newDrops } = feed;
  const gridRef = useRef<HTMLDivElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const ids = useMemo(() => feed.drops.map((drop) => drop.id), [feed.drops]);
  const keepFocus = useKeepFocusInFeed(ids, gridRef, statusRef);
  const failedFirst = !loaded && !feed.loading && feed.error !== null;
  const loadingFirst = !loaded && !failedFirst;
  const tryAgain = () => {
    void feed.reload();
    if (tab === 'discover') dropsOf(client).discoverChats().catch(() => {});
  };

  return (
    <section className="cf-page cf-drops">
      <PageHeader title="Drops" />
      <div className="cf-page__body cf-drops__body">
        <FeedTabs tab={tab} notificationCount={notificationCount} />
        {/* Always present, so screen readers announce the indicator when it appears. */}
        <div role="status" className="cf-drops__live">
          {tab === 'following' && newDrops.length > 0 ? (
            <Button variant="secondary" className="cf-drops__new" onClick={feed.showNewDrops}>
              New drops{' '}
              <span className="cf-badge" aria-hidden="true">
                {newDrops.length}
              </span>
            </Button>
          ) : null}
        </div>
        {tab === 'discover' ? <DiscoverChats /> : null}
        {loadingFirst ? (
          <p className="cf-drops__note" role="status">
            <Spinner size={18} /> Loading drops...
          </p>
        ) : null}
        {failedFirst ? (
          <Alert>
            {messages.loadDropsFailed}{' '}
            <Button variant="ghost" onClick={tryAgain}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {loaded ? (
          <>
            <p ref={statusRef} className="cf-drops__status" tabIndex={-1}>
              {feedStatusLine(tab, feed.totalCount)}
            </p>
            {feed.drops.length === 0 ? (
              <div className="cf-drops__empty">
                <h2>{emptyTexts[tab].title}</h2>
                {emptyTexts[tab].hint ? <p>{emptyTexts[tab].hint}</p> : null}
              </div>
            ) : (
              <div ref={gridRef} className="cf-drops__grid" onFocus={keepFocus}>
                {feed.drops.map((drop) => (
                  <DropCard key={drop.id} drop={drop} locale={locale} />
                ))}
              </div>
            )}
            {feed.error !== null ? (
              <Alert>
                {messages.loadDropsFailed}{' '}
                <Button variant="ghost" onClick={() => void feed.loadMore()}>
                  Try again
                </Button>
              </Alert>
            ) : null}
            {feed.hasMore ? (
              <Button variant="secondary" className="cf-drops__more" onClick={() => void feed.loadMore()} aria-disabled={feed.loadingMore || undefined}>
                {feed.loadingMore ? 'Loading...' : 'Load More Drops'}
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
