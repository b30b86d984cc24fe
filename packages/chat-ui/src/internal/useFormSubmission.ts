import { useState, type FormEvent } from 'react';
import { failureMessage } from '@confab/client';
import { failed, idle, submitting, succeeded, type FormStatus } from './formStatus';

export interface FormSubmission {
  status: FormStatus;
  /** The message to show: a validation text or the server's (or the fallback) after a failure. */
  error: string | null;
  /** Submitting, or done and about to be replaced: the fields and button stay disabled. */
  busy: boolean;
  /** An onSubmit handler: validate (its text, nothing sent), then run the action with the form busy. */
  handle: (validate: () => string | null, action: () => Promise<void>) => (event: FormEvent<HTMLFormElement>) => Promise<void>;
}

/**
 * The submit cycle of the join and signup forms: a validation failure shows its exact text and
 * sends nothing; a refused action shows the server's message, else `fallbackMessage`, and frees
 * the form; a second submit while one runs is ignored.
 */
export function useFormSubmission(fallbackMessage: string): FormSubmission {
  const [status, setStatus] = useState<FormStatus>(idle);
  const busy = status.kind === 'submitting' || status.kind === 'success';

  const handle: FormSubmission['handle'] = (validate, action) => async (event) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validate();
    if (invalid !== null) {
      setStatus(failed(invalid));
      return;
    }
    setStatus(submitting);
    try {
      await action();
      setStatus(succeeded);
    } catch (failure) {
      setStatus(failed(failureMessage(failure, fallbackMessage)));
    }
  };

  return { status, error: status.kind === 'error' ? status.message : null, busy, handle };
}
