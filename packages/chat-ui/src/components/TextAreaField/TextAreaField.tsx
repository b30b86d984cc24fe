import type { TextareaHTMLAttributes } from 'react';
import { LabelledField } from '../FormField/FormField';

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
  return (
    <LabelledField label={label} hint={hint} id={id} className={className}>
      {(fieldId, hintId) => <textarea {...textareaProps} id={fieldId} rows={rows} className="cf-field__input cf-field__textarea" aria-describedby={hintId} />}
    </LabelledField>
  );
}
