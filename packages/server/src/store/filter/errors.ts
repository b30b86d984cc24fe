/** Codes of filter failures; the HTTP layer maps `status` straight to the response. */
export const filterErrorCodes = {
  /** Unparsable filter or sort, unknown or hidden field, limit exceeded. */
  invalid: 400,
  /** A client used `@request.` / `@collection.` identifiers, which only API rules may use. */
  forbidden: 403,
} as const;

export type FilterErrorCode = keyof typeof filterErrorCodes;

/**
 * The only error the filter and sort compilers throw for bad input.
 *
 * @example
 * try { compileFilter(filter, ctx) } catch (error) {
 *   if (error instanceof FilterError) reply.code(error.status).send({ status: error.status, message: error.message, data: {} });
 * }
 */
export class FilterError extends Error {
  readonly code: FilterErrorCode;
  readonly status: 400 | 403;

  constructor(message: string, code: FilterErrorCode = 'invalid') {
    super(message);
    this.name = 'FilterError';
    this.code = code;
    this.status = filterErrorCodes[code];
  }
}

/** Builds the PocketBase-style message: "Invalid filter: <detail>." */
export function invalidFilter(detail: string): FilterError {
  return new FilterError(`Invalid filter: ${detail}.`);
}

export function invalidSort(detail: string): FilterError {
  return new FilterError(`Invalid sort: ${detail}.`);
}

/** Shows user text inside a message without letting it break the message apart. */
export function quote(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown);
}
