import { ClientResponseError } from 'pocketbase';
import { messages } from './validation/messages';

/** One server-side field error, as PocketBase reports it under `data.<field>`. */
export interface FieldError {
  code: string;
  message: string;
}

export interface ConfabErrorDetails {
  fieldErrors?: Record<string, FieldError>;
  /** The response body when there was one, else whatever the failure carried. */
  data?: unknown;
  isAbort?: boolean;
  /** No answer could be read: the server is down or unreachable, or the browser refused CORS. */
  isNetworkFailure?: boolean;
  cause?: unknown;
}

/**
 * The one error type of @confab/client (docs/PRODUCT.md §8 "Generic request failure"): every failed
 * call rejects with it. `status` is the HTTP status, or 0 when no response arrived (network
 * failure, abort). `isAbort` marks cancelled requests, which screens ignore; `isNetworkFailure`
 * marks requests that got no answer the page could read, which screens show as they are
 * (serverUnreachableError).
 *
 * @example
 * throw new ConfabError('User not authenticated', 401);
 */
export class ConfabError extends Error {
  override name = 'ConfabError';
  status: number;
  fieldErrors: Record<string, FieldError>;
  data: unknown;
  isAbort: boolean;
  isNetworkFailure: boolean;

  constructor(message: string, status = 0, details: ConfabErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = status;
    this.fieldErrors = details.fieldErrors ?? {};
    this.data = details.data;
    this.isAbort = details.isAbort ?? false;
    this.isNetworkFailure = details.isNetworkFailure ?? false;
  }

  /** The `message` of the server's response body, when a response with one arrived. */
  get serverMessage(): string | null {
    if (this.status === 0) return null;
    const message = isObject(this.data) ? this.data['message'] : undefined;
    return typeof message === 'string' && message.trim() !== '' ? message : null;
  }
}

/**
 * A request that got no answer: fetch rejects with a TypeError alike when the server is down, the
 * address is wrong, or the browser refused the answer because the server did not allow this page's
 * origin (CORS), and a page cannot tell these apart. The last is the usual one for a site embedding
 * Confab, so the text names the setting (docs/packages.md, Using the packages from another origin).
 */
export function serverUnreachableError(baseUrl: string, cause: unknown): ConfabError {
  return new ConfabError(messages.serverUnreachable(baseUrl), 0, { isNetworkFailure: true, cause });
}

/** fetch's own rejection for a request that got no answer (not an abort, which is a DOMException). */
export function isFetchNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TypeError');
}

const genericMessage = 'Something went wrong.';
const abortMessage = 'The request was aborted.';

/** Turns any failure (the pocketbase SDK's ClientResponseError, fetch rejection, abort, thrown value) into a ConfabError. */
export function toConfabError(error: unknown): ConfabError {
  if (error instanceof ConfabError) return error;
  if (error instanceof ClientResponseError || isClientResponseErrorLike(error)) {
    return fromClientResponseError(error);
  }
  if (isAbortError(error)) {
    return new ConfabError(abortMessage, 0, { isAbort: true, cause: error });
  }
  if (error instanceof Error) {
    return new ConfabError(error.message || genericMessage, 0, { cause: error });
  }
  if (typeof error === 'string' && error.trim() !== '') return new ConfabError(error, 0);
  // A bare error body such as `{status, message, data}` thrown by hand-written fetch code.
  if (isObject(error) && typeof error['status'] === 'number') return fromBody(error['status'], error);
  return new ConfabError(genericMessage, 0, { data: error });
}

/**
 * Reads a non-ok fetch Response (product endpoints) into a ConfabError carrying the status and
 * the body's message; a body that is not JSON leaves the HTTP status text as the message.
 */
export async function confabErrorFromResponse(response: Response): Promise<ConfabError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (or empty): the status alone still describes the failure.
  }
  if (isObject(body)) return fromBody(response.status, body);
  return new ConfabError(response.statusText || genericMessage, response.status, { data: body });
}

function fromClientResponseError(error: ClientResponseError): ConfabError {
  const body: unknown = error.response;
  if (error.isAbort) return new ConfabError(abortMessage, 0, { isAbort: true, data: body, cause: error });
  if (error.status === 0) {
    // No response: the SDK wraps the fetch rejection; its own message is more telling.
    const original: unknown = error.originalError;
    // The client's fetch already said which server could not be reached.
    if (original instanceof ConfabError) return original;
    const message = original instanceof Error && original.message ? original.message : error.message;
    if (isAbortError(original)) return new ConfabError(abortMessage, 0, { isAbort: true, cause: error });
    return new ConfabError(message || genericMessage, 0, { cause: error });
  }
  const converted = fromBody(error.status, isObject(body) ? body : {});
  converted.cause = error;
  return converted;
}

function fromBody(status: number, body: Record<string, unknown>): ConfabError {
  const message = typeof body['message'] === 'string' && body['message'] !== '' ? body['message'] : genericMessage;
  return new ConfabError(message, status, { data: body, fieldErrors: readFieldErrors(body['data']) });
}

/** PocketBase puts validation errors under `data` as `{field: {code, message}}`. */
function readFieldErrors(value: unknown): Record<string, FieldError> {
  const fieldErrors: Record<string, FieldError> = {};
  if (!isObject(value)) return fieldErrors;
  for (const [field, entry] of Object.entries(value)) {
    if (typeof entry === 'string') {
      fieldErrors[field] = { code: 'invalid', message: entry };
    } else if (isObject(entry) && typeof entry['message'] === 'string') {
      const code = typeof entry['code'] === 'string' ? entry['code'] : 'invalid';
      fieldErrors[field] = { code, message: entry['message'] };
    }
  }
  return fieldErrors;
}

// Duck typing as well as instanceof: a bundler may load a second copy of the SDK (the app's own
// `pocketbase` beside this package's), whose errors name themselves `ClientResponseError <status>`.
function isClientResponseErrorLike(error: unknown): error is ClientResponseError {
  return (
    error instanceof Error &&
    error.name.startsWith('ClientResponseError') &&
    typeof (error as Partial<ClientResponseError>).status === 'number'
  );
}

function isAbortError(error: unknown): boolean {
  return isObject(error) && (error['name'] === 'AbortError' || error['message'] === 'Aborted');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
