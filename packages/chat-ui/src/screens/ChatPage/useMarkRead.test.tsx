import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { markReadThrottleMs, useMarkRead } from './useMarkRead';

let visibility: DocumentVisibilityState = 'visible';
let report: (seq: number) => void = () => {};

function Probe({ chatId }: { chatId: string }) {
  report = useMarkRead(chatId);
  return null;
}

function setVisibility(next: DocumentVisibilityState) {
  visibility = next;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  vi.useFakeTimers();
});
afterEach(() => vi.restoreAllMocks());

function setup(chatId = 'chat_a') {
  const result = renderWithConfab(<Probe chatId={chatId} />);
  const markRead = vi.spyOn(result.client.chats, 'markRead').mockResolvedValue(undefined);
  return { ...result, markRead };
}

describe('useMarkRead', () => {
  it('sends the highest seq on screen at most once per 500 ms', () => {
    const { markRead } = setup();
    report(5);
    expect(markRead).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(markReadThrottleMs));
    expect(markRead).toHaveBeenLastCalledWith('chat_a', 5);
    report(6);
    report(8);
    act(() => vi.advanceTimersByTime(markReadThrottleMs - 1));
    expect(markRead).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect(markRead).toHaveBeenLastCalledWith('chat_a', 8);
    // Scrolled back up: nothing new is read.
    report(4);
    act(() => vi.advanceTimersByTime(markReadThrottleMs * 2));
    expect(markRead).toHaveBeenCalledTimes(2);
  });

  it('waits while the tab is hidden, then sends what is on screen once it is shown', () => {
    const { markRead } = setup();
    setVisibility('hidden');
    report(9);
    act(() => vi.advanceTimersByTime(markReadThrottleMs * 4));
    expect(markRead).not.toHaveBeenCalled();
    setVisibility('visible');
    act(() => vi.advanceTimersByTime(markReadThrottleMs));
    expect(markRead).toHaveBeenCalledExactlyOnceWith('chat_a', 9);
  });

  it('sends what is still waiting when the page leaves the chat or unmounts', () => {
    const { markRead, rerender, unmount } = setup();
    report(3);
    rerender(<Probe chatId="chat_b" />);
    expect(markRead).toHaveBeenLastCalledWith('chat_a', 3);
    report(2);
    unmount();
    expect(markRead).toHaveBeenLastCalledWith('chat_b', 2);
    act(() => vi.advanceTimersByTime(markReadThrottleMs * 2));
    expect(markRead).toHaveBeenCalledTimes(2);
  });
});
