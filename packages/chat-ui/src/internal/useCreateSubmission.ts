import { useState, type FormEvent } from 'react';

export interface CreateSubmissionOptions<Result> {
  /** A validation text (nothing is sent) or null. */
  validate: () => string | null;
  create: () => Promise<Result>;
  /** The words for a refused or failed create, e.g. createAgentErrorMessage. */
  errorMessage: (failure: unknown) => string;
  /** After a create succeeded: clear the fields and hand the result on. */
  onCreated: (result: Result) => void;
  /**
   * Keep the form busy after a success, for a form that is about to be replaced (the Create a Drop
   * modal opens the new drop): a second submit cannot create a second one. Default false.
   */
  staysBusyAfterSuccess?: boolean | undefined;
}

export interface CreateSubmission {
  /** The validation text or the failure's message; null while there is none. */
  error: string | null;
  /** A create is running: the fields and the button are disabled. */
  busy: boolean;
  /** The form's onSubmit handler. */
  submit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
}

/**
 * The submit cycle of a form that creates things one after another (the agent forms): a
 * validation failure shows its text and sends nothing; a second submit while one runs is ignored;
 * a failure shows `errorMessage(failure)`; success calls `onCreated` and frees the form for the
 * next one (unlike useFormSubmission, whose success leaves the form busy for a redirect), unless
 * `staysBusyAfterSuccess`.
 */
export function useCreateSubmission<Result>({ validate, create, errorMessage, onCreated, staysBusyAfterSuccess = false }: CreateSubmissionOptions<Result>): CreateSubmission {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const invalid = validate();
    if (invalid !== null) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onCreated(await create());
      if (!staysBusyAfterSuccess) setBusy(false);
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return { error, busy, submit };
}
