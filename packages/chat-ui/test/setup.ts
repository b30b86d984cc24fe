import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

/*
 * Testing Library only cooperates with fake timers when a global `jest` exists: it then detects
 * the fake clock on setTimeout (vitest's fake timers install the same one) and advances it while
 * waiting. Without this, findBy* hangs under vi.useFakeTimers().
 */
(globalThis as { jest?: unknown }).jest = {
  advanceTimersByTime: (milliseconds: number) => vi.advanceTimersByTime(milliseconds),
};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  // The client keeps its session in localStorage (the SDK's LocalAuthStore): start each test signed out.
  localStorage.clear();
});
