import { useCallback, useLayoutEffect, useRef, type FocusEvent, type RefObject } from 'react';

/**
 * Keeps a keyboard user's place when the card they are on leaves the feed (a drop un-bookmarked on
 * Saved, or deleted): the browser would send focus back to the top of the page. Focus goes to the
 * title link of the card now in its place, else the one before it, else `fallbackRef` (docs/STYLE.md,
 * Accessible by construction). Put `onFocus` on the element holding the cards, one card per child.
 */
export function useKeepFocusInFeed(ids: readonly string[], gridRef: RefObject<HTMLElement | null>, fallbackRef: RefObject<HTMLElement | null>) {
  // The card focus is in, by drop id and place, as of the last focus inside the grid.
  const focused = useRef<{ id: string; index: number } | null>(null);
  const currentIds = useRef(ids);
  currentIds.current = ids;

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const grid = event.currentTarget;
    const index = [...grid.children].findIndex((card) => card.contains(event.target));
    const id = currentIds.current[index];
    focused.current = id === undefined ? null : { id, index };
  }, []);

  useLayoutEffect(() => {
    const was = focused.current;
    if (was === null || ids.includes(was.id)) return;
    focused.current = null;
    const active = document.activeElement;
    // Only when focus was really lost: someone who moved on elsewhere stays where they are.
    if (active !== null && active !== document.body) return;
    const cards = gridRef.current?.children;
    const card = cards?.[Math.min(was.index, cards.length - 1)];
    const target = card?.querySelector<HTMLElement>('h3 a') ?? fallbackRef.current;
    target?.focus();
  }, [ids, gridRef, fallbackRef]);

  return onFocus;
}
