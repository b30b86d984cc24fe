import { useId, type InputHTMLAttributes } from 'react';

export interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  /** Visible label text; it is also the field's accessible name. */
  label: string;
  /** Optional help text shown under the field and read after the label. */
  hint?: string | undefined;
  /** An explicit id; by default one is generated. */
  id?: string | undefined;
}

/** A labelled text input: a visible `<label htmlFor>` tied to the input, plus an optional hint. */
export function FormField({ label, hint, id, className, ...inputProps }: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={['cf-field', className].filter(Boolean).join(' ')}>
      <label className="cf-field__label" htmlFor={inputId}>
        {label}
      </label>
      <input {...inputProps} id={inputId} className="cf-field__input" aria-describedby={hintId} />
      {hint ? (
        <p id={hintId} className="cf-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
