/** The states every account form moves through (docs/PRODUCT.md §4: idle, submitting, error, success). */
export type FormStatus =
  | { kind: 'idle' }
  | { kind: 'submitting' }
  | { kind: 'error'; message: string }
  | { kind: 'success' };

export const idle: FormStatus = { kind: 'idle' };
export const submitting: FormStatus = { kind: 'submitting' };
export const succeeded: FormStatus = { kind: 'success' };
export function failed(message: string): FormStatus {
  return { kind: 'error', message };
}
