import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant | undefined;
  /** Stretch to the width of the container (forms, cards). */
  fullWidth?: boolean | undefined;
}

/**
 * The one button. `type` defaults to "button" so a button never submits a form by accident;
 * submit buttons say `type="submit"` explicitly.
 */
export function Button({ variant = 'primary', fullWidth = false, type = 'button', className, ...rest }: ButtonProps) {
  const classes = ['cf-button', `cf-button--${variant}`, fullWidth && 'cf-button--full', className].filter(Boolean);
  return <button {...rest} type={type} className={classes.join(' ')} />;
}
