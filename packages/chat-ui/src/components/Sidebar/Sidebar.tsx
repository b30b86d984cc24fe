import type { ClientState } from '@confab/client';
import { Button } from '../Button/Button';
import { useComponents } from '../../provider/ComponentsContext';
import { usePrefetchIntent } from '../../provider/AppLinksContext';
import { useConfabClient, useConfabStore, useNavigate } from '../../provider/hooks';
import { chatsOf } from '../../internal/chatClient';
import { PendingInvitations } from '../PendingInvitations/PendingInvitations';
import { SidebarChatList } from './SidebarChatList';
import { SidebarUser } from './SidebarUser';

export interface SidebarProps {
  /** The element id the menu toggle points at with aria-controls. */
  id?: string | undefined;
  /** Called after any navigation from the sidebar, so a small-screen drawer can close. */
  onNavigate?: (() => void) | undefined;
  /** Called after the user has logged out (the sidebar already navigated to /login). */
  onLogout?: (() => void) | undefined;
  /** The highlighted chat; by default the store's current chat. */
  activeChatId?: string | null | undefined;
}

/** Workspace destinations of docs/PRODUCT.md §2 Sidebar; the badges are labels only (no role check yet). */
const destinations = [
  { label: 'Drops Feed', to: '/drops' },
  { label: 'My Profile', to: '/profile' },
  { label: 'My Agents', to: '/agents', badge: 'DEV' },
  { label: 'Confab Agents', to: '/admin/confab-agents', badge: 'ADMIN' },
] as const;

const selectChats = (state: ClientState) => state.chats;
const selectCurrentChatId = (state: ClientState) => state.currentChat?.id ?? null;
const selectChatsLoading = (state: ClientState) => state.chatsLoading;
const selectChatsError = (state: ClientState) => state.chatsError;

/**
 * The signed-in sidebar: pending invitations (when there are any), chats, workspace destinations,
 * and the user with status and Logout.
 */
export function Sidebar({ id, onNavigate, onLogout, activeChatId }: SidebarProps) {
  const client = useConfabClient();
  const navigate = useNavigate();
  const { Logo } = useComponents();
  const chats = useConfabStore(selectChats);
  const currentChatId = useConfabStore(selectCurrentChatId);
  const chatsLoading = useConfabStore(selectChatsLoading);
  const chatsError = useConfabStore(selectChatsError);
  // Pointer over or focus on an entry fetches its page's code (inside ConfabApp).
  const intent = usePrefetchIntent();

  const go = (to: string) => {
    navigate(to);
    onNavigate?.();
  };

  return (
    <aside id={id} className="cf-sidebar" aria-label="Sidebar">
      <div className="cf-sidebar__header">
        <Logo />
        <Button variant="secondary" className="cf-sidebar__new-chat" onClick={() => go('/chat/new')} {...intent('/chat/new')}>
          New Chat
        </Button>
      </div>
      <PendingInvitations onOpenChat={(chatId) => go(`/chat/${encodeURIComponent(chatId)}`)} />
      <SidebarChatList
        chats={chats}
        activeChatId={activeChatId === undefined ? currentChatId : activeChatId}
        loading={chatsLoading}
        error={chatsError}
        onRetry={() => void chatsOf(client).list().catch(() => {})}
        onOpenChat={(chatId) => go(`/chat/${encodeURIComponent(chatId)}`)}
      />
      <nav className="cf-sidebar__nav" aria-label="Workspace">
        <ul>
          {destinations.map((destination) => (
            <li key={destination.to}>
              <button type="button" className="cf-sidebar__nav-item" onClick={() => go(destination.to)} {...intent(destination.to)}>
                <span>{destination.label}</span>{' '}
                {'badge' in destination ? <span className="cf-badge">{destination.badge}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <SidebarUser onLogout={onLogout} />
    </aside>
  );
}
