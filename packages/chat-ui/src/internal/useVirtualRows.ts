import { useCallback, useLayoutEffect, useMemo, useReducer, useRef, type RefObject } from 'react';
import { flushSync } from 'react-dom';

/** A row's identity: measurements are kept by it, so they survive rows added before it. */
export type RowKey = string | number;

/** One row to render: place it at `start` (px from the top of the canvas). */
export interface VirtualRow {
  index: number;
  key: RowKey;
  start: number;
  size: number;
}

export interface VirtualRowsOptions {
  /** How many rows the list has. */
  count: number;
  /** The key of row `index`; keep it stable (useCallback) while the rows are unchanged, offsets are rebuilt when it changes. */
  getKey: (index: number) => RowKey;
  /** Height assumed for a row until it has been measured. */
  estimatedSize: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** The scrolling element whose content the rows are. */
  scrollRef: RefObject<HTMLElement | null>;
  /** Viewport height while the element reports none (before mount, jsdom, hidden). */
  initialHeight: number;
  /**
   * Called after the layout changed under the user: rows measured to a new height (already
   * committed, so scrollHeight is current), the viewport resized, or a user scroll ended.
   */
  onChange?: (() => void) | undefined;
  /**
   * Where the first rows render when the list gets rows: 'end' renders the last rows at once (a
   * chat opens at its latest message), not the first ones followed by a scroll to the end, which
   * would render, measure and throw away a screenful of rows nobody sees. Default 'start'.
   */
  initialAlign?: 'start' | 'end' | undefined;
}

export interface VirtualRows {
  /** The rows in view plus the overscan, in order. */
  items: VirtualRow[];
  /** Height of all rows together: the canvas's height. */
  totalSize: number;
  /** Ref callback for each rendered row (which must carry `data-index`): measures it and watches its size. */
  measureElement: (element: HTMLElement | null) => (() => void) | undefined;
  /** Where row `index` starts, as rendered now (measured heights, estimates for the others). */
  startOf: (index: number) => number;
  /** Sets the element's scrollTop (clamped by the browser) and updates the rendered rows at once. */
  scrollTo: (top: number) => void;
  /** Scrolls to the very bottom. */
  scrollToEnd: () => void;
  /** True while the user scrolls (a scroll not made through scrollTo within the last 150 ms). */
  isScrolling: () => boolean;
}

/** Largest row index whose start is ≤ `offset` (0 when there are no rows): binary search over the prefix sums. */
export function indexAt(starts: ArrayLike<number>, count: number, offset: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * The rows to render, first and last index inclusive ([0, -1] without rows): those meeting the
 * viewport [scrollTop, scrollTop + viewport), widened by `overscan` on each side. scrollTop is
 * clamped to the content, as a browser would.
 */
export function rangeOf(starts: ArrayLike<number>, count: number, scrollTop: number, viewport: number, overscan: number): [number, number] {
  if (count === 0) return [0, -1];
  const top = Math.max(0, Math.min(scrollTop, starts[count]! - viewport));
  const first = indexAt(starts, count, top);
  const last = indexAt(starts, count, Math.max(top, top + viewport - 1));
  return [Math.max(0, first - overscan), Math.min(count - 1, last + overscan)];
}

/** Prefix sums: starts[i] is where row i begins, starts[count] the total height. */
export function startsOf(count: number, getKey: (index: number) => RowKey, sizes: ReadonlyMap<RowKey, number>, estimatedSize: number): Float64Array {
  const starts = new Float64Array(count + 1);
  for (let index = 0; index < count; index += 1) starts[index + 1] = starts[index]! + (sizes.get(getKey(index)) ?? estimatedSize);
  return starts;
}

const scrollingMs = 150;

/**
 * A small list virtualiser: only the rows meeting the viewport (plus `overscan`) are rendered,
 * each placed at its `start` inside a canvas of `totalSize`.
 *
 * - Heights are estimated until a row is rendered, then measured (on mount, and on every resize
 *   through one ResizeObserver shared by all rows, when the environment has one). They are kept
 *   by row key, so rows added before known rows keep their measurements. A measured height of 0
 *   (hidden, or no layout as in jsdom) keeps what was known, the estimate at first.
 * - Row offsets are prefix sums, rebuilt when the count, getKey or a measurement changes; on
 *   scroll the visible range is found by binary search, and the component re-renders only when
 *   that range changes.
 * - A row above the top of the view measured to a new height moves scrollTop by the difference,
 *   so what is on screen stays put while rows above it are measured.
 */
export function useVirtualRows({
  count,
  getKey,
  estimatedSize,
  overscan,
  scrollRef,
  initialHeight,
  onChange,
  initialAlign = 'start',
}: VirtualRowsOptions): VirtualRows {
  const [, rerender] = useReducer((tick: number) => tick + 1, 0);
  const sizes = useRef(new Map<RowKey, number>()).current;
  // Bumped on every new measurement: the offsets are rebuilt when it moved.
  const sizesVersion = useRef(0);
  const scrollTop = useRef(0);
  const viewport = useRef(initialHeight);
  const range = useRef<[number, number]>([0, -1]);
  // Height changes measured since a render, with where their row started then; applied after the next commit.
  const pending = useRef<Array<{ start: number; delta: number }>>([]);
  // Set while this hook itself scrolls (jsdom fires 'scroll' synchronously): no flushSync then.
  const ownScroll = useRef(false);
  const ownTop = useRef(-1);
  const lastUserScroll = useRef(-Infinity);
  const scrollEnd = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef({ count, getKey, estimatedSize, overscan, initialHeight, onChange });
  latest.current = { count, getKey, estimatedSize, overscan, initialHeight, onChange };

  const version = sizesVersion.current;
  // Rebuilt when a measurement moved the version (the sizes map itself is mutated in place).
  const starts = useMemo(() => startsOf(count, getKey, sizes, estimatedSize), [count, getKey, estimatedSize, sizes, version]);
  const startsRef = useRef(starts);
  startsRef.current = starts;

  const computeRange = useCallback(
    () => rangeOf(startsRef.current, latest.current.count, scrollTop.current, viewport.current, latest.current.overscan),
    [],
  );

  /** Reads the element's scroll position and size; re-renders when the rows to show changed. */
  const sync = useCallback(
    (flush: boolean) => {
      const element = scrollRef.current;
      if (element === null) return;
      scrollTop.current = element.scrollTop;
      viewport.current = element.clientHeight > 0 ? element.clientHeight : latest.current.initialHeight;
      const [first, last] = computeRange();
      if (first === range.current[0] && last === range.current[1]) return;
      range.current = [first, last];
      if (flush) flushSync(rerender);
      else rerender();
    },
    [scrollRef, computeRange],
  );

  const scrollTo = useCallback(
    (top: number) => {
      const element = scrollRef.current;
      if (element === null) return;
      ownScroll.current = true;
      try {
        element.scrollTop = top;
      } finally {
        ownScroll.current = false;
      }
      ownTop.current = element.scrollTop;
      sync(false);
    },
    [scrollRef, sync],
  );

  const scrollToEnd = useCallback(() => {
    const element = scrollRef.current;
    if (element !== null) scrollTo(element.scrollHeight);
  }, [scrollRef, scrollTo]);

  const isScrolling = useCallback(() => performance.now() - lastUserScroll.current < scrollingMs, []);

  /** Measures a rendered row; a new height is recorded by key and re-renders (flushing when outside React). */
  const measure = useCallback((element: Element): boolean => {
    const index = Number((element as HTMLElement).dataset.index);
    const { count: rows, getKey: keyAt, estimatedSize: estimate } = latest.current;
    if (!(index >= 0 && index < rows)) return false;
    const height = element.getBoundingClientRect().height;
    if (!(height > 0)) return false;
    const key = keyAt(index);
    const known = sizes.get(key) ?? estimate;
    if (height === known) return false;
    sizes.set(key, height);
    sizesVersion.current += 1;
    pending.current.push({ start: startsRef.current[index] ?? 0, delta: height - known });
    return true;
  }, [sizes]);

  const observer = useRef<ResizeObserver | null | undefined>(undefined);
  const getObserver = useCallback((): ResizeObserver | null => {
    if (observer.current === undefined) {
      observer.current =
        typeof ResizeObserver === 'undefined'
          ? null
          : new ResizeObserver((entries) => {
              let changed = false;
              for (const entry of entries) {
                const target = entry.target;
                if (!target.isConnected) observer.current?.unobserve(target);
                else if (target === scrollRef.current) {
                  sync(true);
                  latest.current.onChange?.();
                } else if (measure(target)) changed = true;
              }
              if (changed) flushSync(rerender);
            });
    }
    return observer.current;
  }, [scrollRef, sync, measure]);

  const measureElement = useCallback(
    (element: HTMLElement | null) => {
      if (element === null) return undefined;
      // A new height re-renders from the layout effect below, which runs after every ref of this commit.
      measure(element);
      const resizes = getObserver();
      resizes?.observe(element);
      return () => resizes?.unobserve(element);
    },
    [measure, getObserver],
  );

  // Listen to the scroll element (it may appear later, e.g. after an empty state).
  const attached = useRef<{ element: HTMLElement; detach: () => void } | null>(null);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (attached.current?.element === element) return;
    attached.current?.detach();
    attached.current = null;
    if (element === null) return;
    const onScroll = () => {
      if (ownScroll.current) return;
      if (element.scrollTop !== ownTop.current) {
        lastUserScroll.current = performance.now();
        clearTimeout(scrollEnd.current);
        scrollEnd.current = setTimeout(() => latest.current.onChange?.(), scrollingMs);
      }
      sync(true);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    const resizes = getObserver();
    resizes?.observe(element);
    attached.current = {
      element,
      detach: () => {
        element.removeEventListener('scroll', onScroll);
        resizes?.unobserve(element);
        clearTimeout(scrollEnd.current);
      },
    };
    sync(false);
  });
  useLayoutEffect(
    () => () => {
      attached.current?.detach();
      attached.current = null;
      // Rows leaving the DOM are unobserved as the observer reports them disconnected.
    },
    [],
  );

  // Heights measured before this render are in its offsets: keep rows above the view in place, then tell the owner.
  const measuredBefore = pending.current.length;
  useLayoutEffect(() => {
    if (measuredBefore > 0) {
      const applied = pending.current.splice(0, measuredBefore);
      const element = scrollRef.current;
      if (element !== null) {
        const top = element.scrollTop;
        let shift = 0;
        for (const { start, delta } of applied) if (start < top) shift += delta;
        if (shift !== 0) scrollTo(top + shift);
        else sync(false);
      }
      latest.current.onChange?.();
    }
    // Measured during this commit (rows mounted): render again with them.
    if (pending.current.length > 0) rerender();
  });

  // The first render with rows, aligned to the end: as if already scrolled there (rangeOf clamps).
  // The owner's scroll to the end after this commit then finds these very rows in view.
  if (initialAlign === 'end' && range.current[1] < range.current[0] && count > 0) scrollTop.current = starts[count]!;
  const [first, last] = rangeOf(starts, count, scrollTop.current, viewport.current, overscan);
  range.current = [first, last];
  const items: VirtualRow[] = [];
  for (let index = first; index <= last; index += 1) items.push({ index, key: getKey(index), start: starts[index]!, size: starts[index + 1]! - starts[index]! });
  const startOf = useCallback((index: number) => startsRef.current[Math.max(0, Math.min(index, startsRef.current.length - 1))] ?? 0, []);

  return { items, totalSize: starts[count] ?? 0, measureElement, startOf, scrollTo, scrollToEnd, isScrolling };
}
