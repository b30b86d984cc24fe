import { useRef } from 'react';
import { useSidebarToggle } from '../../provider/ShellContext';

export interface SidebarToggleProps {
  className?: string | undefined;
}

/** The small-screen menu button: 'Open sidebar' / 'Close sidebar', hidden on wide screens by CSS. */
export function SidebarToggle({ className }: SidebarToggleProps) {
  const { open, toggle, sidebarId } = useSidebarToggle();
  const ref = useRef<HTMLButtonElement>(null);
  return (
    <button
      ref={ref}
      type="button"
      className={['cf-shell__menu', className].filter(Boolean).join(' ')}
      aria-label={open ? 'Close sidebar' : 'Open sidebar'}
      aria-expanded={open}
      aria-controls={sidebarId}
      onClick={() => toggle(ref.current)}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
