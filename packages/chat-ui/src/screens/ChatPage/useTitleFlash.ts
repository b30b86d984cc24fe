import { useEffect, useRef, useState } from 'react';
import { constants } from '@confab/client';
import { useRestoredTitle } from '../../internal/useDocumentTitle';

export interface TitleFlashOptions {
  /** The title while nothing is flashing, e.g. 'Design - Confab'. */
  title: string;
  /**
   * Changes whenever a new message arrives (e.g. the key of the newest message). Each change seen
   * while the tab is hidden counts as one new message.
   */
  latestMessageKey: string | number | null;
  /** Flash period; default docs/PRODUCT.md §2 1.5 s. */
  intervalMs?: number | undefined;
  /** Set document.title at all; default true (false only counts the unread messages). */
  enabled?: boolean | undefined;
}

/** '(n) New messages!': the flashing title of docs/PRODUCT.md §2 Chat page behaviour. */
export function newMessagesTitle(count: number): string {
  return `(${count}) New messages!`;
}

/**
 * Keeps document.title at `title`; while the tab is hidden and new messages arrive, alternates it
 * with '(n) New messages!' every 1.5 s until the tab is visible again. On unmount the title from
 * before is put back. Returns the number of unread messages.
 */
export function useTitleFlash({ title, latestMessageKey, intervalMs = constants.titleFlashIntervalMs, enabled = true }: TitleFlashOptions): number {
  const [unread, setUnread] = useState(0);
  const seenKey = useRef(latestMessageKey);
  useRestoredTitle(enabled);

  useEffect(() => {
    if (latestMessageKey === seenKey.current) return;
    seenKey.current = latestMessageKey;
    if (document.visibilityState === 'hidden' && latestMessageKey !== null) setUnread((count) => count + 1);
  }, [latestMessageKey]);

  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') setUnread(0);
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  // No title in the cleanup: the next run sets it, and on unmount useRestoredTitle does.
  useEffect(() => {
    if (!enabled) return undefined;
    if (unread === 0) {
      document.title = title;
      return undefined;
    }
    let flashing = true;
    document.title = newMessagesTitle(unread);
    const timer = setInterval(() => {
      flashing = !flashing;
      document.title = flashing ? newMessagesTitle(unread) : title;
    }, intervalMs);
    return () => clearInterval(timer);
  }, [enabled, unread, title, intervalMs]);

  return unread;
}
