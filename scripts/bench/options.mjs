// Command-line options of `pnpm bench`, e.g. `pnpm bench --clients=500 --only=bare`.
// Every count is fixed so a run is bounded; the hard timeout ends a run that hangs.

export const defaults = Object.freeze({
  clients: 1000, // WebSocket clients joined to the one chat
  users: 10, // distinct accounts behind them (confab), sockets round-robin; each costs two password hashes
  senders: 10, // clients that send, round-robin, so no single user carries the whole load
  throughputMessages: 200, // sent as fast as the window allows
  window: 20, // messages in flight during the throughput phase (acknowledged by the echo)
  latencyMessages: 50, // sent at a fixed pace for the latency figures
  // 5/s × 1,000 receivers = 5,000 deliveries/s: well under what either server (and the load
  // side, which shares the machine) sustains, so the figure is latency, not queueing.
  latencyRatePerSecond: 5,
  warmupMessages: 20,
  phaseTimeoutMs: 60_000, // one phase gives up waiting for deliveries after this
  rounds: 3, // bare and confab alternate this many times; the report uses medians
  timeoutMs: 900_000, // the whole run
  only: 'both', // 'bare' | 'confab' | 'both'
});

/**
 * `--name=value` options of a bench script over its defaults: a number default takes a positive
 * integer; an unknown option or a bad number throws, naming it. Every bench script reads its options so.
 * @template {Record<string, number | string>} T
 * @param {string[]} argv
 * @param {T} benchDefaults
 * @returns {T}
 */
export function parseBenchOptions(argv, benchDefaults) {
  const options = { ...benchDefaults };
  for (const argument of argv) {
    const match = /^--([a-zA-Z]+)=(.+)$/.exec(argument);
    if (!match || !(match[1] in benchDefaults)) throw new Error(`unknown option ${argument}; known: ${Object.keys(benchDefaults).map((name) => `--${name}`).join(', ')}`);
    const [, name, value] = match;
    options[name] = typeof benchDefaults[name] === 'number' ? positiveInteger(name, value) : value;
  }
  return options;
}

/** @param {string[]} argv */
export function parseOptions(argv) {
  const options = parseBenchOptions(argv, defaults);
  if (!['bare', 'confab', 'both'].includes(options.only)) throw new Error('--only must be bare, confab or both');
  options.senders = Math.min(options.senders, options.clients);
  return options;
}

function positiveInteger(name, value) {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`--${name} must be a positive integer`);
  return number;
}
