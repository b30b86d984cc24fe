import { useId, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../Alert/Alert';
import { Button } from '../Button/Button';

export interface CardFormProps {
  /** The heading, which also names the form. */
  title: string;
  /** The submit button's text, e.g. 'Create Agent'. */
  submitLabel: string;
  /** The submit button's text while busy, e.g. 'Creating...'. */
  busyLabel: string;
  /** Disables the submit button and marks it aria-busy; the fields are the caller's to disable. */
  busy: boolean;
  /** Shown as an alert under the heading, and describes the form. */
  error: string | null;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void | Promise<void>;
  /** The fields. */
  children: ReactNode;
}

/**
 * A form in a card: its heading names it, an error is announced (role="alert") and describes
 * the form, the fields, then the submit button.
 *
 * @example
 * <CardForm title="Create an agent" submitLabel="Create Agent" busyLabel="Creating..." busy={busy} error={error} onSubmit={submit}>
 *   <FormField label="Name" name="name" value={name} disabled={busy} onChange={(event) => setName(event.target.value)} />
 * </CardForm>
 */
export function CardForm({ title, submitLabel, busyLabel, busy, error, onSubmit, children }: CardFormProps) {
  const headingId = useId();
  const errorId = useId();
  return (
    <form className="cf-form cf-card" noValidate onSubmit={onSubmit} aria-labelledby={headingId} aria-describedby={error !== null ? errorId : undefined}>
      <h2 id={headingId}>{title}</h2>
      {error !== null ? <Alert id={errorId}>{error}</Alert> : null}
      {children}
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
