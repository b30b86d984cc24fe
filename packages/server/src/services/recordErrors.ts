import { ConfabServerError, validationError, type FieldErrors } from '../errors';

/** PocketBase's answers when a rule or validation stops a write. */
export const recordErrors = {
  createFailed: (data: FieldErrors = {}): ConfabServerError => validationError('Failed to create record.', data),
  updateFailed: (data: FieldErrors = {}): ConfabServerError => validationError('Failed to update record.', data),
  notFound: (): ConfabServerError => new ConfabServerError('notFound'),
} as const;

export function throwIfErrors(errors: FieldErrors, make: (data: FieldErrors) => ConfabServerError): void {
  if (Object.keys(errors).length > 0) throw make(errors);
}
