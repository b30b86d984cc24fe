/*
 * Waits for real I/O (sockets, HTTP) while fake timers hold setTimeout: it yields with
 * setImmediate and measures with performance.now(), which tests leave real on purpose
 * (see fakeTimerOptions).
 */

/** Fake timers for setTimeout/setInterval/Date only, so socket I/O and this helper keep working. */
export const fakeTimerOptions: { toFake: ('setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval' | 'Date')[] } = {
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
};

export async function waitUntil(condition: () => boolean, description = 'condition', timeoutMs = 3000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Lets pending I/O callbacks and microtasks run without waiting for anything in particular. */
export async function settle(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
