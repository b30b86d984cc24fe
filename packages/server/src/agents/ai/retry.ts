import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ApiError as GeminiApiError } from '@google/genai';

/**
 * When a failed provider call is tried again (docs/OPERATIONS.md, Fault matrix, AI providers):
 * only before anything of the answer was shown or any tool ran (a second try would repeat it),
 * only for what may pass (408, 409, 429, 5xx, a connection that failed), at most `maxAttempts`
 * tries, after the wait the provider asked for (Retry-After) or a short backoff. A wait longer
 * than `retryAfterCapMs` is not sat out: the person is told when to ask again instead.
 */
export const maxAttempts = 3;
export const retryAfterCapMs = 10_000;
const backoffMs = [500, 1000];

export type RetryPlan =
  | { retry: true; waitMs: number }
  /** `tooLongMs`: the provider asked for a wait past the cap. */
  | { retry: false; tooLongMs?: number };

export function retryPlan(error: unknown, input: { attempt: number; progressed: boolean; timedOut: boolean }): RetryPlan {
  if (input.progressed || input.timedOut || !retryable(error)) return { retry: false };
  const asked = retryAfterMs(error);
  if (asked !== undefined && asked > retryAfterCapMs) return { retry: false, tooLongMs: asked };
  if (input.attempt >= maxAttempts) return { retry: false };
  return { retry: true, waitMs: asked ?? backoffMs[Math.min(input.attempt - 1, backoffMs.length - 1)] ?? 1000 };
}

function retryable(error: unknown): boolean {
  if (error instanceof APIError && error.status === undefined) return !(error instanceof APIConnectionTimeoutError) && error instanceof APIConnectionError;
  // OpenAI says so itself when a try would not help (the SDK honours it the same way).
  if (error instanceof APIError && error.headers?.get('x-should-retry') === 'false') return false;
  const status = error instanceof APIError || error instanceof GeminiApiError ? error.status : undefined;
  if (status !== undefined) return status === 408 || status === 409 || status === 429 || status >= 500;
  // fetch's own failure to connect (Gemini's SDK passes it on as it is).
  return error instanceof TypeError && error.message === 'fetch failed';
}

/**
 * The wait the provider asked for: OpenAI's `retry-after-ms` or `retry-after` (seconds or an HTTP
 * date) headers; Gemini's `RetryInfo.retryDelay` ('34.4s'), which its SDK leaves in the message.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (error instanceof APIError && error.headers !== undefined) {
    const milliseconds = Number.parseFloat(error.headers.get('retry-after-ms') ?? '');
    if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
    const header = error.headers.get('retry-after')?.trim() ?? '';
    if (/^\d+(\.\d+)?$/.test(header)) return Number.parseFloat(header) * 1000;
    const date = Date.parse(header);
    if (header !== '' && Number.isFinite(date)) return Math.max(0, date - now);
  }
  if (error instanceof GeminiApiError) {
    const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(error.message);
    if (delay?.[1] !== undefined) return Number.parseFloat(delay[1]) * 1000;
  }
  return undefined;
}
