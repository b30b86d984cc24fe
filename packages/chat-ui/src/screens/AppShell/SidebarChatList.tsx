import type { ChatRecord } from '@confab/client';

export interface SidebarChatListProps {
  chats: readonly ChatRecord[];
  onOpenChat: (chatId: string) => void;
}

/** Chat names with their description (or 'No description'), per spec §2 Sidebar. */
export function SidebarChatList({ chats, onOpenChat }: SidebarChatListProps) {
  return (
    <nav className="cf-sidebar__chats" aria-label="Chats">
      <h2 className="cf-sidebar__section-title">Chats</h2>
      {chats.length === 0 ? (
        <p className="cf-sidebar__empty">No chats yet. Start one with New Chat.</p>
      ) : (
        <ul>
          {chats.map((chat) => (
            <li key={chat.id}>
              <button type="button" className="cf-sidebar__chat" onClick={() => onOpenChat(chat.id)}>
                <span className="cf-sidebar__chat-name">{chat.name}</span>{' '}
                <span className="cf-sidebar__chat-description">{chat.description || 'No description'}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
