import { constants, type FeedTab } from '@confab/client';
import { feedTabPath } from '../../internal/dropsClient';
import { useComponents } from '../../provider/ComponentsContext';

export interface FeedTabsProps {
  tab: FeedTab;
  /** Unread drops of followed chats, shown on the Following tab. */
  notificationCount: number;
}

const labels: Record<FeedTab, string> = { following: 'Following', trending: 'Trending', discover: 'Discover', bookmarks: 'Saved' };

/**
 * The feed tabs of docs/PRODUCT.md §2 as links (/drops, /drops/trending, /drops/discover) and ours,
 * Saved (/drops/bookmarks), the open one marked current.
 */
export function FeedTabs({ tab, notificationCount }: FeedTabsProps) {
  const { Link } = useComponents();
  return (
    <nav className="cf-feed-tabs" aria-label="Feeds">
      <ul>
        {constants.feedTabs.map((each) => (
          <li key={each}>
            <Link
              to={feedTabPath(each)}
              className="cf-feed-tabs__tab"
              aria-current={each === tab ? 'page' : undefined}
            >
              {labels[each]}
              {each === 'following' && notificationCount > 0 ? (
                <>
                  {' '}
                  {/* Named 'Following (n new)' from its content, not an aria-label, so the visible text stays part of the name. */}
                  <span className="cf-badge cf-feed-tabs__badge" aria-hidden="true">
                    {notificationCount}
                  </span>
                  <span className="cf-visually-hidden">({notificationCount} new)</span>
                </>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
