import type { ReactNode } from 'react';

export type StatusMessageVariant = 'success' | 'info';

export interface StatusMessageProps {
  children: ReactNode;
  variant?: StatusMessageVariant | undefined;
  className?: string | undefined;
}

/** A polite live region (role="status") for successes and progress: announced without interrupting. */
export function StatusMessage({ children, variant = 'success', className }: StatusMessageProps) {
  return (
    <div role="status" className={['cf-status', `cf-status--${variant}`, className].filter(Boolean).join(' ')}>
      {children}
    </div>
  );
}
