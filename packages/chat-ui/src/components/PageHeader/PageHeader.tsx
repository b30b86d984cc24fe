import type { ReactNode } from 'react';
import { useNavigate } from '../../provider/hooks';
import { SidebarToggle } from './SidebarToggle';

export interface PageHeaderProps {
  /** The page title, rendered as the page's h1. */
  title?: ReactNode | undefined;
  /** With a back target the header shows a back button; without, the sidebar menu toggle. */
  backTo?: string | undefined;
  /** The back button's accessible name; default 'Back'. */
  backLabel?: string | undefined;
  /** Anything shown at the end of the header (buttons, status). */
  actions?: ReactNode | undefined;
  /** Extra content after the title (e.g. the logo in the empty shell). */
  children?: ReactNode | undefined;
  className?: string | undefined;
}

/** The shared page header of docs/PRODUCT.md §2 Sidebar: a back button or the sidebar menu toggle, then the title. */
export function PageHeader({ title, backTo, backLabel = 'Back', actions, children, className }: PageHeaderProps) {
  const navigate = useNavigate();
  return (
    <header className={['cf-page-header', className].filter(Boolean).join(' ')}>
      {backTo === undefined ? (
        <SidebarToggle />
      ) : (
        <button type="button" className="cf-page-header__back" aria-label={backLabel} onClick={() => navigate(backTo)}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      )}
      {title === undefined ? null : <h1 className="cf-page-header__title">{title}</h1>}
      {children}
      {actions === undefined ? null : <div className="cf-page-header__actions">{actions}</div>}
    </header>
  );
}
