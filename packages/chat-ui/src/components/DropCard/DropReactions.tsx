import type { WireDrop } from '@confab/client';
import { dropsOf, useDropsStore } from '../../internal/dropsClient';
import { useConfabClient } from '../../provider/hooks';

export interface DropReactionProps {
  drop: Pick<WireDrop, 'id' | 'is_liked' | 'like_count' | 'is_bookmarked'>;
  className?: string | undefined;
}

/*
 * Like and bookmark (docs/PRODUCT.md §4): toggle buttons (aria-pressed) that update at once through
 * client.drops, roll back silently when the server refuses, and do nothing while a request for
 * that drop is in flight (aria-disabled, so keyboard focus stays on them).
 */

/** 'Like' with the like count; pressed when the user likes the drop. */
export function LikeButton({ drop, className }: DropReactionProps) {
  const client = useConfabClient();
  const pending = useDropsStore((state) => state.pending[`like:${drop.id}`] === true);
  return (
    <button
      type="button"
      className={['cf-drop-reaction', 'cf-drop-reaction--like', className].filter(Boolean).join(' ')}
      aria-pressed={drop.is_liked}
      aria-disabled={pending || undefined}
      onClick={() => {
        // A failure is rolled back in the store; docs/PRODUCT.md §8: silently.
        if (!pending) void dropsOf(client).toggleLike(drop.id).catch(() => {});
      }}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <path
          d="M12 20.5s-7.5-4.6-7.5-10.1A4.4 4.4 0 0 1 12 7.6a4.4 4.4 0 0 1 7.5 2.8c0 5.5-7.5 10.1-7.5 10.1z"
          fill={drop.is_liked ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="cf-visually-hidden">Like</span> <span className="cf-drop-reaction__count">{drop.like_count}</span>
    </button>
  );
}

/** 'Bookmark'; pressed when the user has bookmarked the drop. */
export function BookmarkButton({ drop, className }: DropReactionProps) {
  const client = useConfabClient();
  const pending = useDropsStore((state) => state.pending[`bookmark:${drop.id}`] === true);
  return (
    <button
      type="button"
      className={['cf-drop-reaction', 'cf-drop-reaction--bookmark', className].filter(Boolean).join(' ')}
      aria-pressed={drop.is_bookmarked}
      aria-disabled={pending || undefined}
      onClick={() => {
        if (!pending) void dropsOf(client).toggleBookmark(drop.id).catch(() => {});
      }}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <path d="M6.5 3.5h11v17l-5.5-4-5.5 4z" fill={drop.is_bookmarked ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      </svg>
      <span className="cf-visually-hidden">Bookmark</span>
    </button>
  );
}
