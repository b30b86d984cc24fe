import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTitleFlash } from './useTitleFlash';

let visibility: DocumentVisibilityState = 'visible';

function setVisibility(next: DocumentVisibilityState) {
  visibility = next;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => vi.restoreAllMocks());

describe('useTitleFlash', () => {
  it('puts the title it found back on unmount, also in the middle of a flash', () => {
    document.title = 'Host page';
    const { rerender, unmount } = renderHook(({ key }) => useTitleFlash({ title: 'Design - Confab', latestMessageKey: key }), {
      initialProps: { key: 'm1' },
    });
    expect(document.title).toBe('Design - Confab');
    setVisibility('hidden');
    rerender({ key: 'm2' });
    expect(document.title).toBe('(1) New messages!');
    unmount();
    expect(document.title).toBe('Host page');
    act(() => vi.advanceTimersByTime(3000));
    expect(document.title).toBe('Host page');
  });

  it('leaves the title alone when not enabled, still counting unread messages', () => {
    document.title = 'Host page';
    const { rerender, result } = renderHook(({ key }) => useTitleFlash({ title: 'Design - Confab', latestMessageKey: key, enabled: false }), {
      initialProps: { key: 'm1' },
    });
    setVisibility('hidden');
    rerender({ key: 'm2' });
    expect(result.current).toBe(1);
    act(() => vi.advanceTimersByTime(3000));
    expect(document.title).toBe('Host page');
  });

  it('sets the title', () => {
    renderHook(() => useTitleFlash({ title: 'Design - Confab', latestMessageKey: 'm1' }));
    expect(document.title).toBe('Design - Confab');
  });

  it('does not flash while the tab is visible', () => {
    const { rerender } = renderHook(({ key }) => useTitleFlash({ title: 'Design - Confab', latestMessageKey: key }), { initialProps: { key: 'm1' } });
    rerender({ key: 'm2' });
    act(() => vi.advanceTimersByTime(3000));
    expect(document.title).toBe('Design - Confab');
  });

  it("flashes '(n) New messages!' every 1.5 s while hidden, until visible again", () => {
    const { rerender, result } = renderHook(({ key }) => useTitleFlash({ title: 'Design - Confab', latestMessageKey: key }), {
      initialProps: { key: 'm1' },
    });
    setVisibility('hidden');
    rerender({ key: 'm2' });
    expect(result.current).toBe(1);
    expect(document.title).toBe('(1) New messages!');
    act(() => vi.advanceTimersByTime(1499));
    expect(document.title).toBe('(1) New messages!');
    act(() => vi.advanceTimersByTime(1));
    expect(document.title).toBe('Design - Confab');
    act(() => vi.advanceTimersByTime(1500));
    expect(document.title).toBe('(1) New messages!');

    rerender({ key: 'm3' });
    expect(document.title).toBe('(2) New messages!');

    setVisibility('visible');
    expect(result.current).toBe(0);
    expect(document.title).toBe('Design - Confab');
    act(() => vi.advanceTimersByTime(6000));
    expect(document.title).toBe('Design - Confab');
  });
});
