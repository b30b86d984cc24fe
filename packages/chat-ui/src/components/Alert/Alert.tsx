import type { ReactNode } from 'react';

export interface AlertProps {
  children: ReactNode;
  /** Lets a form point at the alert with aria-describedby. */
  id?: string | undefined;
  className?: string | undefined;
}

/** An error message, announced immediately by screen readers (role="alert"). */
export function Alert({ children, id, className }: AlertProps) {
  return (
    <div id={id} role="alert" className={['cf-alert', className].filter(Boolean).join(' ')}>
      <svg className="cf-alert__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <rect x="9" y="5" width="2" height="7" rx="1" fill="#fff" />
        <circle cx="10" cy="14.5" r="1.2" fill="#fff" />
      </svg>
      <div className="cf-alert__text">{children}</div>
    </div>
  );
}
