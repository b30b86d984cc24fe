import type { ChatRecord } from '@confab/client';
import { Button } from '../Button/Button';
import { useComponents } from '../../provider/ComponentsContext';
import { SidebarChatEntry } from './SidebarChatEntry';

export interface SidebarChatListProps {
  chats: readonly ChatRecord[];
  onOpenChat: (chatId: string) => void;
  /** The chat shown in the main area; its entry is highlighted and marked aria-current. */
  activeChatId?: string | null | undefined;
  /** True while the list loads; shown only when there is nothing to show yet. */
  loading?: boolean | undefined;
  /** The message of a failed load, with a 'Try again' button when onRetry is given. */
  error?: string | null | undefined;
  onRetry?: (() => void) | undefined;
}

/**
 * Chat names with their description (or 'No description'), per docs/PRODUCT.md §2 Sidebar, and
 * each chat's unread count (SidebarChatEntry), in the client's order (newest activity first).
 */
export function SidebarChatList({ chats, onOpenChat, activeChatId, loading = false, error = null, onRetry }: SidebarChatListProps) {
  const { Spinner } = useComponents();
  let body;
  if (error !== null && chats.length === 0) {
    body = (
      <div className="cf-sidebar__error" role="alert">
        <p>Failed to load chats.</p>
        {onRetry ? (
          <Button variant="ghost" className="cf-sidebar__retry" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </div>
    );
  } else if (loading && chats.length === 0) {
    body = (
      <p className="cf-sidebar__empty" role="status">
        <Spinner size={14} /> Loading chats...
      </p>
    );
  } else if (chats.length === 0) {
    body = <p className="cf-sidebar__empty">No chats yet. Start one with New Chat.</p>;
  } else {
    body = (
      <ul>
        {chats.map((chat) => (
          <li key={chat.id}>
            <SidebarChatEntry chat={chat} active={chat.id === activeChatId} onOpenChat={onOpenChat} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <nav className="cf-sidebar__chats" aria-label="Chats">
      <h2 className="cf-sidebar__section-title">Chats</h2>
      {body}
    </nav>
  );
}
