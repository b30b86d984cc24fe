import { act, render } from '@testing-library/react';
import { useCallback, useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubMessageListLayout } from '../../test/layout';
import { indexAt, rangeOf, startsOf, useVirtualRows, type VirtualRows } from './useVirtualRows';

describe('indexAt (binary search over row starts)', () => {
  // Rows of 10, 20, 30 and 40 px.
  const starts = startsOf(4, (index) => index, new Map([[0, 10], [1, 20], [2, 30], [3, 40]]), 99);

  it('builds prefix sums from the measured sizes', () => {
    expect([...starts]).toEqual([0, 10, 30, 60, 100]);
  });

  it('finds the row an offset falls in, its start included and its end excluded', () => {
    expect([0, 9, 10, 29, 30, 59, 60, 99].map((offset) => indexAt(starts, 4, offset))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('clamps beyond the ends and answers 0 without rows', () => {
    expect(indexAt(starts, 4, -5)).toBe(0);
    expect(indexAt(starts, 4, 1_000)).toBe(3);
    expect(indexAt(new Float64Array([0]), 0, 50)).toBe(0);
  });

  it('takes about log2(n) steps over 10,000 rows', () => {
    const big = startsOf(10_000, (index) => index, new Map(), 76);
    expect(indexAt(big, 10_000, 76 * 5_000 + 3)).toBe(5_000);
    expect(indexAt(big, 10_000, 76 * 9_999)).toBe(9_999);
  });
});

describe('rangeOf', () => {
  const starts = startsOf(100, (index) => index, new Map(), 10);

  it('widens the rows in view by the overscan on each side', () => {
    // View [200, 250): rows 20..24.
    expect(rangeOf(starts, 100, 200, 50, 3)).toEqual([17, 27]);
    expect(rangeOf(starts, 100, 205, 50, 0)).toEqual([20, 25]);
  });

  it('stops the overscan at the first and the last row', () => {
    expect(rangeOf(starts, 100, 0, 50, 3)).toEqual([0, 7]);
    expect(rangeOf(starts, 100, 950, 50, 3)).toEqual([92, 99]);
  });

  it('clamps a scroll position past the content, and has no rows for an empty list', () => {
    expect(rangeOf(starts, 100, 5_000, 50, 0)).toEqual([95, 99]);
    expect(rangeOf(starts, 5, 0, 600, 8)).toEqual([0, 4]);
    expect(rangeOf(new Float64Array([0]), 0, 0, 600, 8)).toEqual([0, -1]);
  });
});

/** Heights the rows measure to, by key (getBoundingClientRect is stubbed: jsdom has no layout). */
let heightOf: (key: string) => number = () => 0;
let hook: VirtualRows;

/** Every row key the list has mounted, in mount order (a row scrolled out and back counts twice). */
let mounted: string[] = [];

function List({
  keys,
  onChange,
  overscan = 2,
  initialAlign,
}: {
  keys: readonly string[];
  onChange?: () => void;
  overscan?: number;
  initialAlign?: 'start' | 'end';
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getKey = useCallback((index: number) => keys[index]!, [keys]);
  hook = useVirtualRows({ count: keys.length, getKey, estimatedSize: 10, overscan, scrollRef, initialHeight: 50, onChange, initialAlign });
  const measure = hook.measureElement;
  const track = useCallback(
    (element: HTMLElement | null) => {
      if (element !== null) mounted.push(element.dataset.key!);
      return measure(element);
    },
    [measure],
  );
  return (
    <div ref={scrollRef} className="cf-message-list">
      <div className="cf-message-list__canvas" style={{ height: hook.totalSize }}>
        {hook.items.map((item) => (
          <div key={item.key} ref={track} data-index={item.index} data-key={item.key} style={{ transform: `translateY(${item.start}px)` }} />
        ))}
      </div>
    </div>
  );
}

const keysOf = (from: number, to: number) => Array.from({ length: to - from }, (_, offset) => `k${from + offset}`);
const renderedKeys = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('[data-key]')].map((row) => row.dataset.key);

describe('useVirtualRows', () => {
  beforeEach(() => {
    heightOf = () => 0;
    mounted = [];
    stubMessageListLayout(50);
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const key = (this as HTMLElement).dataset.key;
      const height = key === undefined ? 0 : heightOf(key);
      return { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: height, width: 0, height, toJSON: () => ({}) } as DOMRect;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('renders the rows in view plus the overscan, and follows scrolling', () => {
    const { container } = render(<List keys={keysOf(0, 100)} />);
    expect(renderedKeys(container)).toEqual(keysOf(0, 7));
    expect(hook.totalSize).toBe(1_000);
    act(() => hook.scrollTo(500));
    expect(renderedKeys(container)).toEqual(keysOf(48, 57));
    act(() => hook.scrollToEnd());
    expect(container.querySelector<HTMLElement>('.cf-message-list')!.scrollTop).toBe(950);
    expect(renderedKeys(container)).toEqual(keysOf(93, 100));
  });

  it("with initialAlign 'end', renders the last rows first and only those, also when rows come later", () => {
    const { container, rerender } = render(<List keys={[]} initialAlign="end" />);
    expect(renderedKeys(container)).toEqual([]);
    rerender(<List keys={keysOf(0, 100)} initialAlign="end" />);
    // The view's rows (95-99) and the overscan above them; rows 0-6 were never mounted.
    expect(renderedKeys(container)).toEqual(keysOf(93, 100));
    act(() => hook.scrollToEnd());
    expect(renderedKeys(container)).toEqual(keysOf(93, 100));
    expect(mounted).toEqual(keysOf(93, 100));
  });

  it('keeps the estimate for a row measured at 0 px (hidden, or no layout)', () => {
    const { container } = render(<List keys={keysOf(0, 20)} />);
    expect(renderedKeys(container).length).toBeGreaterThan(0);
    expect(hook.totalSize).toBe(200);
    expect(hook.items.map((item) => item.size)).toEqual(hook.items.map(() => 10));
  });

  it('keeps measured heights by key when rows are prepended', () => {
    heightOf = (key) => (key === 'k2' ? 40 : key === 'k3' ? 25 : 0);
    const { rerender } = render(<List keys={keysOf(2, 4)} />);
    expect(hook.totalSize).toBe(65);
    expect(hook.startOf(1)).toBe(40);

    // Two older rows arrive above (not measured: they keep the estimate); k2 and k3 keep theirs.
    heightOf = () => 0;
    rerender(<List keys={keysOf(0, 4)} />);
    expect(hook.startOf(2)).toBe(20);
    expect(hook.startOf(3)).toBe(60);
    expect(hook.totalSize).toBe(85);
    expect(hook.items.map(({ key, start, size }) => [key, start, size])).toEqual([
      ['k0', 0, 10],
      ['k1', 10, 10],
      ['k2', 20, 40],
      ['k3', 60, 25],
    ]);
  });

  it('moves scrollTop by the growth of rows measured above the view, so the view stays put', () => {
    const { container } = render(<List keys={keysOf(0, 100)} />);
    const list = container.querySelector<HTMLElement>('.cf-message-list')!;
    // Rows 48 and 49 (above the view at 500, in the overscan) measure 20 px instead of 10.
    heightOf = (key) => (key === 'k48' || key === 'k49' ? 20 : 10);
    act(() => hook.scrollTo(500));
    expect(hook.startOf(50)).toBe(520);
    expect(list.scrollTop).toBe(520);
    expect(hook.totalSize).toBe(1_020);
  });

  it('remeasures a row through the shared ResizeObserver and reports the change', () => {
    const observed = new Set<Element>();
    let report: ResizeObserverCallback = () => {};
    class FakeResizeObserver {
      constructor(callback: ResizeObserverCallback) {
        report = callback;
      }
      observe(element: Element) {
        observed.add(element);
      }
      unobserve(element: Element) {
        observed.delete(element);
      }
      disconnect() {
        observed.clear();
      }
    }
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    try {
      const onChange = vi.fn();
      const { container } = render(<List keys={keysOf(0, 3)} onChange={onChange} />);
      const list = container.querySelector<HTMLElement>('.cf-message-list')!;
      // The scroll element and each row, in one observer.
      expect(observed.size).toBe(4);
      expect(observed.has(list)).toBe(true);

      // The last row grows (a streamed reply).
      heightOf = (key) => (key === 'k2' ? 90 : 0);
      const last = container.querySelector('[data-key="k2"]')!;
      act(() => report([{ target: last } as unknown as ResizeObserverEntry], {} as ResizeObserver));
      expect(hook.totalSize).toBe(110);
      expect(onChange).toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
