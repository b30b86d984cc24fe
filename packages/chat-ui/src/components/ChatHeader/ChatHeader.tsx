import { useId, useRef } from 'react';
import type { ChatRecord, ClientState } from '@confab/client';
import { useConfabStore, useNavigate } from '../../provider/hooks';
import { SidebarToggle } from '../PageHeader/SidebarToggle';

export interface ChatHeaderProps {
  chat: Pick<ChatRecord, 'id' | 'name'>;
  /** The text of the search box; messages of the chat are filtered by it. */
  searchQuery: string;
  onSearchChange: (query: string) => void;
  /** Opens the chat files panel; the button is disabled until a host provides it. */
  onOpenFiles?: () => void;
  /** Opens the Create a Drop modal; the button is disabled until a host provides it. */
  onCreateDrop?: () => void;
  /**
   * Whether the user may invite people (spec §6: chat admins). When false, Invite User is
   * disabled and says why. Default true; ChatPage passes whether the user is an admin.
   */
  canInvite?: boolean;
}

/** Why Invite User is disabled for a participant who is not an admin. */
export const inviteAdminsOnlyHint = 'Only chat admins can invite people.';

const selectConnectionState = (state: ClientState) => state.connectionState;

/**
 * The label of spec §2 Chat header: 'Connected', else the lost-connection warning; only the very
 * first connect (before any connection was up) reads 'Connecting...'.
 */
export function connectionLabel(state: ClientState['connectionState'], everConnected = true): string {
  if (state === 'connected') return 'Connected';
  if (state === 'idle' || (state === 'connecting' && !everConnected)) return 'Connecting...';
  return 'Connection Lost - Messages may not send';
}

/** Spec §2 Chat header: name, connection label, menu toggle, search, and the five chat actions. */
export function ChatHeader({ chat, searchQuery, onSearchChange, onOpenFiles, onCreateDrop, canInvite = true }: ChatHeaderProps) {
  const navigate = useNavigate();
  const connectionState = useConfabStore(selectConnectionState);
  const searchId = useId();
  const inviteHintId = useId();
  const base = `/chat/${encodeURIComponent(chat.id)}`;
  // Reconnect attempts after a drop keep showing the warning rather than 'Connecting...'.
  const everConnected = useRef(false);
  if (connectionState === 'connected') everConnected.current = true;
  const label = connectionLabel(connectionState, everConnected.current);
  const lost = label !== 'Connected' && label !== 'Connecting...';
  return (
    <header className="cf-chat-header">
      <div className="cf-chat-header__top">
        <SidebarToggle />
        <div className="cf-chat-header__title">
          <h1>{chat.name}</h1>
          <span role="status" className={`cf-connection cf-connection--${lost ? 'lost' : connectionState}`}>
            <span className="cf-connection__dot" aria-hidden="true" />
            {label}
          </span>
        </div>
        <div className="cf-chat-header__search">
          <label htmlFor={searchId} className="cf-visually-hidden">
            Search messages
          </label>
          <input
            id={searchId}
            type="search"
            className="cf-field__input"
            placeholder="Search messages"
            value={searchQuery}
            onChange={(event) => onSearchChange(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && searchQuery !== '') {
                event.stopPropagation();
                onSearchChange('');
              }
            }}
          />
        </div>
      </div>
      <nav className="cf-chat-header__actions" aria-label="Chat actions">
        {canInvite ? (
          <button type="button" className="cf-chip" onClick={() => navigate(`${base}/invite`)}>
            Invite User
          </button>
        ) : (
          // The title sits on a wrapper: browsers show no tooltip for a disabled button itself.
          <span className="cf-chip-hint" title={inviteAdminsOnlyHint}>
            <button type="button" className="cf-chip" disabled aria-describedby={inviteHintId}>
              Invite User
            </button>
            <span id={inviteHintId} className="cf-visually-hidden">
              {inviteAdminsOnlyHint}
            </span>
          </span>
        )}
        <button type="button" className="cf-chip" onClick={onOpenFiles} disabled={onOpenFiles === undefined}>
          Chat Files
        </button>
        <button type="button" className="cf-chip" onClick={() => navigate(`${base}/drops`)}>
          View Drops
        </button>
        <button type="button" className="cf-chip" onClick={onCreateDrop} disabled={onCreateDrop === undefined}>
          Create a Drop
        </button>
        <button type="button" className="cf-chip" onClick={() => navigate(`${base}/options`)}>
          Chat Options
        </button>
      </nav>
    </header>
  );
}
