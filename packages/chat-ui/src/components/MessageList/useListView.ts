import { useCallback, useRef, useState, type RefObject } from 'react';
import type { Row } from './rows';
import { highestSeqInView } from './unread';

export interface ListViewOptions {
  /** The scrolling list and the canvas the rows are placed on. */
  scrollRef: RefObject<HTMLElement | null>;
  canvasRef: RefObject<HTMLElement | null>;
  rows: readonly Row[];
  /** The row the 'New messages' divider sits on, -1 without one. */
  dividerRow: number;
  /** While a search filters the rows, nothing counts as seen. */
  filtering: boolean;
  /** Where row `index` starts on the canvas (the virtualiser's). */
  startOf: (index: number) => number;
  onMessagesSeen: ((seq: number) => void) | undefined;
  /** Distance from the bottom still counted as at the bottom. */
  bottomSlackPx: number;
  /** The viewport assumed while the element reports none (jsdom). */
  fallbackViewportPx: number;
}

export interface ListView {
  /** Which jump buttons to offer. */
  jumps: { toFirstUnread: boolean; toLatest: boolean };
  /** Call after any scroll or layout change: updates `jumps` and reports what is on screen. */
  updateView: () => void;
  /** Call when the rows are gone (another chat): what is seen next is reported afresh. */
  forgetSeen: () => void;
  /** Where the canvas starts inside the scrolled content (below the list's padding and notes). */
  canvasTop: () => number;
}

/** What the message list's view shows: the divider above it or not, the bottom or not, which messages. */
export function useListView(options: ListViewOptions): ListView {
  const latest = useRef(options);
  latest.current = options;
  const [jumps, setJumps] = useState({ toFirstUnread: false, toLatest: false });
  const lastSeen = useRef<number | null>(null);

  const canvasTop = useCallback(() => latest.current.canvasRef.current?.offsetTop ?? 0, []);

  const updateView = useCallback(() => {
    const { scrollRef, rows, dividerRow, filtering, startOf, onMessagesSeen, bottomSlackPx, fallbackViewportPx } = latest.current;
    const element = scrollRef.current;
    if (element === null) return;
    const top = element.scrollTop - canvasTop();
    const toFirstUnread = dividerRow >= 0 && startOf(dividerRow) < top;
    const toLatest = element.scrollHeight - element.scrollTop - element.clientHeight > bottomSlackPx;
    setJumps((current) => (current.toFirstUnread === toFirstUnread && current.toLatest === toLatest ? current : { toFirstUnread, toLatest }));
    if (filtering || onMessagesSeen === undefined) return;
    const height = element.clientHeight > 0 ? element.clientHeight : fallbackViewportPx;
    const seq = highestSeqInView(rows, startOf, top, top + height);
    if (seq === null || seq === lastSeen.current) return;
    lastSeen.current = seq;
    onMessagesSeen(seq);
  }, [canvasTop]);

  const forgetSeen = useCallback(() => {
    lastSeen.current = null;
  }, []);

  return { jumps, updateView, forgetSeen, canvasTop };
}
