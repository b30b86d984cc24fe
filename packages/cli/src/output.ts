/** One place that prints results and errors, so every command honours --json the same way. */
import { toConfabError } from '@confab/client';

export class CliError extends Error {}

export function print(json: boolean, value: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
}

/** Prints a clear message (never a stack trace) and exits 1. */
export function fail(error: unknown, json: boolean): never {
  const message = error instanceof CliError ? error.message : toConfabError(error).message;
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}
