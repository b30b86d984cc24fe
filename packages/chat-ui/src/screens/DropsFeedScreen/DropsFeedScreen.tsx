import { useEffect, useState } from 'react';
import { constants, messages, type ClientState, type FeedTab, type TimeAgoLocale } from '@confab/client';
import { Alert } from '../../components/Alert/Alert';
import { Button } from '../../components/Button/Button';
import { DropCard } from '../../components/DropCard/DropCard';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useDocumentTitle } from '../../internal/useDocumentTitle';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { DiscoverChats } from './DiscoverChats';
import { FeedTabs } from './FeedTabs';

export interface DropsFeedScreenProps {
  /** The open tab (the route: /drops, /drops/trending, /drops/discover); default 'following'. */
  tab?: FeedTab;
  /** Relative-date language; default 'en'. */
  locale?: TimeAgoLocale;
  /** Appended to 'Drops' in document.title; default ' - Confab'. */
  titleSuffix?: string;
}

/** The status line of spec §2 Drops feed. */
export function feedStatusLine(tab: FeedTab, count: number): string {
  if (tab === 'trending') return `${count} drops trending now`;
  if (tab === 'discover') return `${count} drops to discover`;
  return `${count} drops from chats you follow`;
}

const emptyTexts: Record<FeedTab, { title: string; hint?: string }> = {
  following: { title: messages.noFollowedDrops, hint: messages.noFollowedDropsHint },
  trending: { title: messages.noTrendingDrops },
  discover: { title: messages.noDiscoverDrops },
};

const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * /drops, /drops/trending, /drops/discover (spec §2 Drops feed): tabs (each opens at page 1), the
 * status line, the drops as cards, Load More Drops while there are more, 'Failed to load drops'
 * with Try again, the notifications badge on Following and its live 'New drops'; Discover also
 * lists chats to follow.
 */
export function DropsFeedScreen({ tab = constants.defaultFeedTab, locale = 'en', titleSuffix = ' - Confab' }: DropsFeedScreenProps) {
  const client = useConfabClient();
  const { Spinner } = useComponents();
  const userId = useConfabStore(selectUserId);
  const feed = useDropsStore((state) => state.feed);
  const newDrops = useDropsStore((state) => state.newDrops);
  const notificationCount = useDropsStore((state) => state.notificationCount);
  const [attempt, setAttempt] = useState(0);
  useDocumentTitle(`Drops${titleSuffix}`);

  useEffect(() => {
    if (userId === null) return;
    // store.feed.error carries a failure; the screen shows it with Try again.
    dropsOf(client).loadFeed(tab).catch(() => {});
    if (tab === 'discover') dropsOf(client).discoverChats().catch(() => {});
  }, [client, tab, userId, attempt]);

  useEffect(() => {
    if (userId === null) return;
    dropsOf(client).notifications().catch(() => {});
  }, [client, userId]);

  // Until loadFeed switches the store over, it may still hold another tab's drops.
  const current = feed.tab === tab;
  const loaded = current && feed.page > 0;
  const failedFirst = current && !feed.loading && feed.page === 0 && feed.error !== null;
  const loadingFirst = !loaded && !failedFirst;

  return (
    <section className="cf-page cf-drops">
      <PageHeader title="Drops" />
      <div className="cf-page__body cf-drops__body">
        <FeedTabs tab={tab} notificationCount={notificationCount} />
        {/* Always present, so screen readers announce the indicator when it appears. */}
        <div role="status" className="cf-drops__live">
          {tab === 'following' && newDrops.length > 0 ? (
            <Button variant="secondary" className="cf-drops__new" onClick={() => dropsOf(client).showNewDrops()}>
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
            <Button variant="ghost" onClick={() => setAttempt((count) => count + 1)}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {loaded ? (
          <>
            <p className="cf-drops__status">{feedStatusLine(tab, feed.total_count)}</p>
            {feed.drops.length === 0 ? (
              <div className="cf-drops__empty">
                <h2>{emptyTexts[tab].title}</h2>
                {emptyTexts[tab].hint ? <p>{emptyTexts[tab].hint}</p> : null}
              </div>
            ) : (
              <div className="cf-drops__grid">
                {feed.drops.map((drop) => (
                  <DropCard key={drop.id} drop={drop} locale={locale} />
                ))}
              </div>
            )}
            {feed.error !== null ? (
              <Alert>
                {messages.loadDropsFailed}{' '}
                <Button variant="ghost" onClick={() => void dropsOf(client).loadMore().catch(() => {})}>
                  Try again
                </Button>
              </Alert>
            ) : null}
            {feed.has_more ? (
              <Button variant="secondary" className="cf-drops__more" onClick={() => void dropsOf(client).loadMore().catch(() => {})} aria-disabled={feed.loadingMore || undefined}>
                {feed.loadingMore ? 'Loading...' : 'Load More Drops'}
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
