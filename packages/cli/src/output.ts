/** One place that prints results and errors, so every command honours --json the same way. */
import { toConfabError } from '@confab/client';

/** A failure whose message is already written for the person at the terminal. */
export class CliError extends Error {}

export function print(json: boolean, value: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** A warning or hint beside the result: stderr, so `--json` output on stdout stays parseable. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

/**
 * The message a person should read for any failure: ours, the server's, or a network error's.
 * A server refusal's field errors are its reasons ("Failed to create agent." alone says nothing
 * about what to change), so they follow its message: `… username: The username is … in use.`
 */
export function errorMessage(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const failure = toConfabError(error);
  const reasons = Object.entries(failure.fieldErrors).map(([field, { message }]) => `${field}: ${message.trim()}`);
  return reasons.length === 0 ? failure.message : `${failure.message} ${reasons.join('; ')}`;
}

/** Prints a clear message (never a stack trace) and exits 1. */
export function fail(error: unknown, json: boolean): never {
  const message = errorMessage(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** Runs a command's work; any failure goes through `fail`, the one error handler. */
export async function runAction(json: boolean, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    fail(error, json);
  }
}
