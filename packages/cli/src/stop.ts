/**
 * Ctrl+C for commands that run until stopped (`run`, `tail`): the first SIGINT or SIGTERM asks
 * them to close cleanly and exit 0; a second one, after the handlers are gone, ends the process
 * the default way.
 */
export interface StopSignal {
  /** Resolves with the signal's name on the first SIGINT or SIGTERM. */
  readonly stopped: Promise<NodeJS.Signals>;
  dispose(): void;
}

export function onStopSignal(): StopSignal {
  let dispose = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      dispose();
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    dispose = () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  });
  return { stopped, dispose: () => dispose() };
}

/** How long a stopping command may take to close its sockets before it is made to exit. */
const closeGraceMs = 3_000;

/**
 * Exits with `code` once the event loop drains, which is the proof that everything was closed;
 * a safety timer (unref'd, so it never holds the process itself) forces it after closeGraceMs.
 */
export function exitWhenDrained(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), closeGraceMs).unref();
}
