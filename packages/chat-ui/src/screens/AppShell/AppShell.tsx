import { useCallback, useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import type { ClientState } from '@confab/client';
import { AgentSearchBox } from '../../components/AgentSearchBox/AgentSearchBox';
import { CompleteAccountBanner } from '../../components/CompleteAccountBanner/CompleteAccountBanner';
import { PageHeader } from '../../components/PageHeader/PageHeader';
import { Sidebar } from '../../components/Sidebar/Sidebar';
import { chatsOf, realtimeOf } from '../../internal/chatClient';
import { useComponents } from '../../provider/ComponentsContext';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { ShellContext, type ShellContextValue } from '../../provider/ShellContext';

export interface AppShellProps {
  /**
   * Connect client.realtime when a user is signed in and it has never connected. Default false:
   * the client connects itself on auth unless created with `realtime: { autoConnect: false }`.
   */
  connectRealtime?: boolean | undefined;
  /** The chat to highlight in the sidebar (e.g. the route's id); default the store's current chat. */
  activeChatId?: string | null | undefined;
  /**
   * The main area (ChatPage, CreateChatScreen, ChatOptionsScreen …), each with its own header; by
   * default a small header with the menu toggle and the 'Select a chat to get started' empty state.
   */
  children?: ReactNode | undefined;
}

const selectSidebarOpen = (state: ClientState) => state.sidebarOpen;
const selectUserId = (state: ClientState) => state.user?.id ?? null;

/**
 * The signed-in shell: sidebar plus main area. Once a user is signed in it opens the realtime
 * connection and loads the chat list and the pending invitations. On small screens the sidebar is a drawer opened by the menu
 * button and closed by the overlay, Escape, or any navigation from it.
 */
export function AppShell({ children, connectRealtime: autoConnectShell = false, activeChatId }: AppShellProps) {
  const client = useConfabClient();
  const sidebarId = useId();
  const lastToggle = useRef<HTMLButtonElement | null>(null);
  const focusOnOpen = useRef(false);
  const sidebarOpen = useConfabStore(selectSidebarOpen);
  const userId = useConfabStore(selectUserId);
  // The open flag lives in the client store (docs/PRODUCT.md §3 "sidebar open") so other screens
  // can toggle it.
  const setSidebarOpen = useCallback((open: boolean) => client.store.setState({ sidebarOpen: open }), [client]);
  const shell = useMemo<ShellContextValue>(() => ({ sidebarId, lastToggle, focusOnOpen }), [sidebarId]);

  // The client connects realtime itself on initialize/login/register (its autoConnect option) and
  // closes it on logout; a host that turned autoConnect off gets it connected here instead.
  useEffect(() => {
    if (userId === null) return;
    if (autoConnectShell && realtimeOf(client).state === 'idle') realtimeOf(client).connect();
    chatsOf(client)
      .list()
      .catch(() => {
        // chatsError in the store carries the failure; the sidebar shows it with 'Try again'.
      });
    // From here on invitations_changed frames keep the list current; invitationsError holds a failure.
    client.invitations.listPending().catch(() => {});
  }, [client, userId, autoConnectShell]);

  // Opening the drawer from a menu button moves focus into it, so keyboard and screen-reader
  // users land where the content appeared (only then: other code may set the flag on wide screens).
  useEffect(() => {
    if (!sidebarOpen || !focusOnOpen.current) return;
    focusOnOpen.current = false;
    document.getElementById(sidebarId)?.querySelector<HTMLElement>('button, a[href]')?.focus();
  }, [sidebarOpen, sidebarId]);

  useEffect(() => {
    if (!sidebarOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setSidebarOpen(false);
      lastToggle.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [sidebarOpen, setSidebarOpen]);

  return (
    <ShellContext.Provider value={shell}>
      <div className="cf-shell" data-sidebar-open={sidebarOpen || undefined}>
        <Sidebar id={sidebarId} activeChatId={activeChatId} onNavigate={() => setSidebarOpen(false)} onLogout={() => setSidebarOpen(false)} />
        {sidebarOpen ? (
          // Mouse/touch affordance only; keyboard users close with Escape or the menu button.
          <div className="cf-shell__overlay" aria-hidden="true" onClick={() => setSidebarOpen(false)} />
        ) : null}
        <div className="cf-shell__main">
          <CompleteAccountBanner />
          <main className="cf-shell__content">{children ?? <ChatHome />}</main>
        </div>
      </div>
    </ShellContext.Provider>
  );
}

/**
 * /chat with no chat chosen: the small-screen header (menu toggle, logo), the empty state, and the
 * agent search (docs/PRODUCT.md §2), whose Chat buttons start a new chat with an agent.
 */
export function ChatHome() {
  const { Logo } = useComponents();
  return (
    <>
      <PageHeader className="cf-shell__header">
        <Logo compact />
      </PageHeader>
      <div className="cf-chat-home">
        <EmptyChatState />
        <AgentSearchBox className="cf-card cf-chat-home__search" />
      </div>
    </>
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
