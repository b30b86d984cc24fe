import { useEffect, useLayoutEffect } from 'react';
import { useDocumentTitleEnabled } from '../provider/hooks';

/**
 * Keeps document.title at `title` while the screen is shown (null: leave it as it is), when the
 * provider allows screens the title (`documentTitle`). The title found on mount is put back on
 * unmount, so a host page gets its own title back.
 */
export function useDocumentTitle(title: string | null): void {
  const enabled = useDocumentTitleEnabled();
  useRestoredTitle(enabled);
  useEffect(() => {
    if (enabled && title !== null) document.title = title;
  }, [enabled, title]);
}

/**
 * Puts back, when the component unmounts (or `active` turns false), the document.title there was
 * when it became active. A layout effect: on a change of screen React runs the old screen's
 * layout cleanups, then the new one's layout setups, and only then the passive effects that set
 * titles, so each screen sees (and restores) the title from before any screen touched it. The
 * title effects therefore never set a title in their cleanup.
 */
export function useRestoredTitle(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return undefined;
    const previous = document.title;
    return () => {
      document.title = previous;
    };
  }, [active]);
}
