// What keeps a bench script bounded: clean-ups run newest first on every exit path (done, failed,
// timed out, interrupted) and a hard timeout that ends a run that hangs.

/**
 * @param {{ timeoutMs: number, log: (text: string) => void }} options
 * @returns {{ cleanups: Array<() => Promise<unknown>>, cleanUp: () => Promise<void>, finish: (run: Promise<number>) => void }}
 *   `cleanUp()` runs the clean-ups pushed so far (a run that frees one part before the next);
 *   `finish(run())` exits with the run's code once cleaned up (2 when it throws).
 */
export function boundedRun({ timeoutMs, log }) {
  const cleanups = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  };
  const abort = (reason, code) => {
    log(`${reason}; shutting down`);
    void cleanUp().finally(() => process.exit(code));
  };
  const hardTimeout = setTimeout(() => abort(`hard timeout of ${timeoutMs} ms reached`, 2), timeoutMs);
  process.on('SIGINT', () => abort('interrupted', 130));
  process.on('SIGTERM', () => abort('terminated', 143));
  const exit = async (code) => {
    clearTimeout(hardTimeout);
    await cleanUp();
    process.exit(code);
  };
  return {
    cleanups,
    cleanUp,
    finish: (run) => {
      run.then(exit, (error) => {
        log(error instanceof Error ? error.stack ?? error.message : String(error));
        return exit(2);
      });
    },
  };
}
