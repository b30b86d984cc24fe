import { useCallback, useEffect, useId, useRef, type ReactNode } from 'react';
import type { ClientState } from '@confab/client';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { Sidebar } from './Sidebar';

export interface AppShellProps {
  /** The main area; by default the 'Select a chat to get started' empty state. */
  children?: ReactNode;
}

const selectSidebarOpen = (state: ClientState) => state.sidebarOpen;

/**
 * The signed-in shell: sidebar plus main area. On small screens the sidebar is a drawer opened by
 * the menu button and closed by the overlay, Escape, or any navigation from it.
 */
export function AppShell({ children }: AppShellProps) {
  const client = useConfabClient();
  const { Logo } = useComponents();
  const sidebarId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const sidebarOpen = useConfabStore(selectSidebarOpen);
  // The open flag lives in the client store (spec §3 "sidebar open") so other screens can toggle it.
  const setSidebarOpen = useCallback((open: boolean) => client.store.setState({ sidebarOpen: open }), [client]);

  // Opening the drawer from the menu button moves focus into it, so keyboard and screen-reader
  // users land where the content appeared (only then: other code may set the flag on wide screens).
  const focusSidebarOnOpen = useRef(false);
  useEffect(() => {
    if (!sidebarOpen || !focusSidebarOnOpen.current) return;
    focusSidebarOnOpen.current = false;
    document.getElementById(sidebarId)?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, [sidebarOpen, sidebarId]);

  useEffect(() => {
    if (!sidebarOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setSidebarOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [sidebarOpen, setSidebarOpen]);

  return (
    <div className="cf-shell" data-sidebar-open={sidebarOpen || undefined}>
      <Sidebar id={sidebarId} onNavigate={() => setSidebarOpen(false)} onLogout={() => setSidebarOpen(false)} />
      {sidebarOpen ? (
        // Mouse/touch affordance only; keyboard users close with Escape or the menu button.
        <div className="cf-shell__overlay" aria-hidden="true" onClick={() => setSidebarOpen(false)} />
      ) : null}
      <div className="cf-shell__main">
        <header className="cf-shell__header">
          <button
            ref={toggleRef}
            type="button"
            className="cf-shell__menu"
            aria-label={sidebarOpen ? 'Close sidebar' : 'Open sidebar'}
            aria-expanded={sidebarOpen}
            aria-controls={sidebarId}
            onClick={() => {
              focusSidebarOnOpen.current = !sidebarOpen;
              setSidebarOpen(!sidebarOpen);
            }}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <Logo compact />
        </header>
        <main className="cf-shell__content">{children ?? <EmptyChatState />}</main>
      </div>
    </div>
  );
}

/** The main area of /chat before a chat is chosen. */
export function EmptyChatState() {
  return (
    <div className="cf-empty">
      <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
        <rect x="4" y="8" width="40" height="26" rx="9" fill="currentColor" opacity="0.15" />
        <path d="M14 34 v8 l9-8" fill="currentColor" opacity="0.15" />
        <circle cx="16" cy="21" r="2.5" fill="currentColor" />
        <circle cx="24" cy="21" r="2.5" fill="currentColor" />
        <circle cx="32" cy="21" r="2.5" fill="currentColor" />
      </svg>
      <h2>Select a chat to get started</h2>
      <p>Pick a chat from the sidebar, or start a new one and mention an agent with @.</p>
    </div>
  );
}
