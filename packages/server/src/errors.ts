/**
 * The server's one error type. Services throw it with a code; `http/errorHandler.ts` is the only
 * place that turns a code into an HTTP status and PocketBase-shaped JSON.
 */

export const errorCodes = {
  badRequest: { status: 400, message: 'Something went wrong while processing your request.' },
  unauthorized: { status: 401, message: 'Missing or invalid authentication.' },
  forbidden: { status: 403, message: 'You are not allowed to perform this request.' },
  notFound: { status: 404, message: "The requested resource wasn't found." },
  payloadTooLarge: { status: 413, message: 'Request entity too large.' },
  tooManyRequests: { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.' },
  internal: { status: 500, message: 'Something went wrong while processing your request.' },
  unavailable: { status: 503, message: 'The service is unavailable. Please try again shortly.' },
  insufficientStorage: { status: 507, message: 'The server is out of storage space. Please try again later.' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

export interface FieldError {
  code: string;
  message: string;
}

export type FieldErrors = Record<string, FieldError>;

export class ConfabServerError extends Error {
  readonly code: ErrorCode;
  readonly data: FieldErrors;

  constructor(code: ErrorCode, message?: string, data: FieldErrors = {}) {
    super(message ?? errorCodes[code].message);
    this.name = 'ConfabServerError';
    this.code = code;
    this.data = data;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}

/**
 * The data dir's disk (or the database's) is full: ENOSPC or EDQUOT from the file system,
 * SQLITE_FULL from SQLite, 53100 (disk_full) from PostgreSQL. Nothing was stored, and the same
 * request succeeds once space is freed, so it is answered 507 rather than 500 (docs/OPERATIONS.md,
 * Disk full).
 */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}

export function outOfStorage(): ConfabServerError {
  return new ConfabServerError('insufficientStorage');
}

/** Field error constructors with PocketBase's codes and messages. */
export const fieldErrors = {
  required: (): FieldError => ({ code: 'validation_required', message: 'Cannot be blank.' }),
  email: (): FieldError => ({ code: 'validation_is_email', message: 'Must be a valid email address.' }),
  notUnique: (): FieldError => ({ code: 'validation_not_unique', message: 'Value must be unique.' }),
  /** PocketBase's wording for auth identities, which the client shows as 'Username: …'. */
  identityTaken: (field: 'username' | 'email'): FieldError => ({
    code: 'validation_not_unique',
    message: `The ${field} is invalid or already in use.`,
  }),
  mismatch: (): FieldError => ({ code: 'validation_values_mismatch', message: "Values don't match." }),
  minText: (minimum: number): FieldError => ({
    code: 'validation_min_text_constraint',
    message: `Must be at least ${minimum} character(s).`,
  }),
  maxText: (maximum: number): FieldError => ({
    code: 'validation_max_text_constraint',
    message: `Must be less than ${maximum} character(s).`,
  }),
  length: (minimum: number, maximum: number): FieldError => ({
    code: 'validation_length_out_of_range',
    message: `The length must be between ${minimum} and ${maximum}.`,
  }),
  format: (): FieldError => ({ code: 'validation_invalid_format', message: 'Invalid value format.' }),
  invalidValue: (): FieldError => ({ code: 'validation_invalid_value', message: 'Invalid value.' }),
  invalidToken: (): FieldError => ({ code: 'validation_invalid_token', message: 'Invalid or expired token.' }),
  missingRecords: (): FieldError => ({
    code: 'validation_missing_rel_records',
    message: 'Failed to find all relation records with the provided ids.',
  }),
} as const;

/** A 400 with field errors, as PocketBase answers a failed create or update. */
export function validationError(message: string, data: FieldErrors): ConfabServerError {
  return new ConfabServerError('badRequest', message, data);
}
