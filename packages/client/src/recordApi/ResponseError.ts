/** What a ResponseError is made from: the failure's parts, or the error fetch threw. */
export interface ResponseErrorInit {
  url?: string;
  /** The HTTP status; 0 (the default) when no response arrived. */
  status?: number;
  /** The parsed JSON body of the response. `data` is an alias. */
  response?: Record<string, unknown>;
  data?: Record<string, unknown>;
  isAbort?: boolean;
  originalError?: unknown;
}

const abortMessage = 'The request was aborted.';
const genericMessage = 'Something went wrong.';

/**
 * A failed record-API request, with the field names of the pocketbase SDK's ClientResponseError
 * (status, response/data, url, isAbort, originalError) and its name (`ClientResponseError <status>`),
 * so code written for SDK errors reads these alike; toConfabError turns both into a ConfabError.
 * A response with status >= 400 gives its status and JSON body (`{}` when not JSON); no response
 * gives status 0, with `isAbort` when the request was aborted.
 *
 * @example
 * new ResponseError({ url, status: 404, response: { message: "The requested resource wasn't found." } });
 * new ResponseError(new TypeError('fetch failed')); // status 0, originalError = the TypeError
 */
export class ResponseError extends Error {
  url = '';
  status = 0;
  response: Record<string, unknown> = {};
  isAbort = false;
  originalError: unknown = null;

  /** Takes the failure's parts (`ResponseErrorInit`) or wraps any other thrown value as its originalError. */
  constructor(init?: unknown) {
    super(genericMessage);
    if (typeof init === 'object' && init !== null) {
      const parts = init as ResponseErrorInit & { name?: unknown; message?: unknown };
      this.originalError = parts.originalError;
      this.url = typeof parts.url === 'string' ? parts.url : '';
      this.status = typeof parts.status === 'number' ? parts.status : 0;
      // React Native's fetch rejects an abort with a plain Error('Aborted').
      this.isAbort = !!parts.isAbort || parts.name === 'AbortError' || parts.message === 'Aborted';
      const body = isObject(parts.response) ? parts.response : parts.data;
      this.response = isObject(body) ? body : {};
    }
    if (!this.originalError && !(init instanceof ResponseError)) this.originalError = init;
    this.name = `ClientResponseError ${this.status}`;
    const message = this.response['message'];
    this.message = typeof message === 'string' && message !== '' ? message : this.isAbort ? abortMessage : genericMessage;
    this.cause = this.originalError;
  }

  /** The response body (alias of `response`, as in the SDK). */
  get data(): Record<string, unknown> {
    return this.response;
  }

  toJSON(): Record<string, unknown> {
    return { ...(this as object) };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
