import { useSyncExternalStore } from 'react';

/**
 * One shared clock for every relative time on the page ('5m ago'): a single timer, however many
 * labels are mounted, fires on each 30-second boundary of the wall clock (so every label turns over
 * together) and only while at least one label listens. Labels read it through useNow().
 */
export const clockTickMs = 30_000;

let snapshot = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;

function tick(): void {
  snapshot = Date.now();
  for (const listener of [...listeners]) listener();
}

/** Arms the one timer for the next boundary; re-armed each time, so it never drifts off the boundary. */
function schedule(): void {
  const delay = clockTickMs - (Date.now() % clockTickMs);
  timer = setTimeout(() => {
    timer = undefined;
    tick();
    if (listeners.size > 0) schedule();
  }, delay);
}

/** Browsers slow timers in hidden tabs: catch up as soon as the page is shown again. */
function onVisibilityChange(): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'visible') tick();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    snapshot = Date.now();
    schedule();
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisibilityChange);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisibilityChange);
    }
  };
}

/**
 * The clock's time. While nobody listens the timer is off, so a first reader refreshes a stale value
 * (kept stable for a second, as useSyncExternalStore reads it more than once per render).
 */
function getSnapshot(): number {
  if (listeners.size === 0 && Math.abs(Date.now() - snapshot) >= 1000) snapshot = Date.now();
  return snapshot;
}

const subscribeNever = () => () => {};

/**
 * The shared clock's current time in epoch milliseconds, re-rendering the caller on every tick.
 * A `fixed` time (tests, stories) is returned as is and subscribes to nothing.
 */
export function useNow(fixed?: number): number {
  const fixedTime = fixed;
  return useSyncExternalStore(
    fixedTime === undefined ? subscribe : subscribeNever,
    fixedTime === undefined ? getSnapshot : () => fixedTime,
    fixedTime === undefined ? getSnapshot : () => fixedTime,
  );
}

/** How many timers the clock holds (0 or 1) and how many labels listen: for tests. */
export function clockStats(): { timers: number; listeners: number } {
  return { timers: timer === undefined ? 0 : 1, listeners: listeners.size };
}
