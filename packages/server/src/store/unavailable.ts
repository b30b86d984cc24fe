/**
 * Whether an error means the database cannot be reached right now (stopped, restarting, the
 * connection cut, no connection within the pool's bound), as opposed to a bad query: such a
 * request is answered 503 'try again shortly' instead of 500 (docs/OPERATIONS.md, Fault matrix).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 3; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (unreachableSocketCodes.has(code) || unavailableSqlStates.test(code))) return true;
    if (typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The socket could not be opened or was cut. */
const unreachableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down by an administrator, crashed,
 * starting up or shutting down: 'cannot connect now') and 53300 (too many connections).
 */
const unavailableSqlStates = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** What node-postgres says, with no code, when a connection ends under it or cannot be had in time. */
const unavailableMessages = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /is not queryable$/,
];
