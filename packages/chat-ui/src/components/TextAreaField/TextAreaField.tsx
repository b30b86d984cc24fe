import { useId, type TextareaHTMLAttributes } from 'react';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  /** Visible label text; it is also the field's accessible name. */
  label: string;
  /** Optional help text shown under the field and read after the label. */
  hint?: string | undefined;
  /** An explicit id; by default one is generated. */
  id?: string | undefined;
}

/**
 * FormField for text of several lines (a persona's prompt): a visible `<label htmlFor>` tied to a
 * textarea, plus an optional hint. Enter starts a new line, as in any textarea; default 5 rows.
 *
 * @example
 * <TextAreaField label="Description" value={text} onChange={(event) => setText(event.target.value)} />
 */
export function TextAreaField({ label, hint, id, className, rows = 5, ...textareaProps }: TextAreaFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  return (
    <div className={['cf-field', className].filter(Boolean).join(' ')}>
      <label className="cf-field__label" htmlFor={fieldId}>
        {label}
      </label>
      <textarea {...textareaProps} id={fieldId} rows={rows} className="cf-field__input cf-field__textarea" aria-describedby={hintId} />
      {hint ? (
        <p id={hintId} className="cf-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
