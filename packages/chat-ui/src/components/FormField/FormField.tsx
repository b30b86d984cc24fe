import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

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
  return (
    <LabelledField label={label} hint={hint} id={id} className={className}>
      {(fieldId, hintId) => <input {...inputProps} id={fieldId} className="cf-field__input" aria-describedby={hintId} />}
    </LabelledField>
  );
}

/**
 * The frame every labelled field shares (FormField, TextAreaField): the label tied to the control
 * by id, and the hint the control is described by. `children` renders the control itself.
 */
export function LabelledField({
  label,
  hint,
  id,
  className,
  children,
}: {
  label: string;
  hint?: string | undefined;
  id?: string | undefined;
  className?: string | undefined;
  children: (fieldId: string, hintId: string | undefined) => ReactNode;
}) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  return (
    <div className={['cf-field', className].filter(Boolean).join(' ')}>
      <label className="cf-field__label" htmlFor={fieldId}>
        {label}
      </label>
      {children(fieldId, hintId)}
      {hint ? (
        <p id={hintId} className="cf-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
