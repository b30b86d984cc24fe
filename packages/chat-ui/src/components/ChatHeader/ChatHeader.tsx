import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatRecord, ClientState } from '@confab/client';
import { useConfabStore, useNavigate } from '../../provider/hooks';
import { usePrefetchIntent } from '../../provider/AppLinksContext';
import { SidebarToggle } from '../PageHeader/SidebarToggle';
import { PeopleStrip, type PeopleStripPerson } from '../PeopleStrip/PeopleStrip';

export interface ChatHeaderProps {
  chat: Pick<ChatRecord, 'id' | 'name'>;
  /** The text of the search box; messages of the chat are filtered by it. */
  searchQuery: string;
  onSearchChange: (query: string) => void;
  /** Opens the chat files panel; the button is disabled until a host provides it. */
  onOpenFiles?: (() => void) | undefined;
  /** Opens the Create a Drop modal; the button is disabled until a host provides it. */
  onCreateDrop?: (() => void) | undefined;
  /**
   * Whether the user may invite people (docs/PRODUCT.md §6: chat admins). When false, Invite User
   * is disabled and says why. Default true; ChatPage passes whether the user is an admin.
   */
  canInvite?: boolean | undefined;
  /**
   * Called when the pointer reaches, or focus lands on, the button of a part that loads on
   * demand ('files': Chat Files, 'createDrop': Create a Drop), so its code can load before the
   * click. On a phone, opening the actions menu announces both.
   */
  onPrefetch?: ((part: ChatHeaderPart) => void) | undefined;
  /** The chat's people for the compact strip beside the name (online ones marked); none: no strip. */
  people?: readonly PeopleStripPerson[] | undefined;
}

/** The parts the header's buttons open that ChatPage loads on demand. */
export type ChatHeaderPart = 'files' | 'createDrop';

/** Why Invite User is disabled for a participant who is not an admin. */
export const inviteAdminsOnlyHint = 'Only chat admins can invite people.';

const selectConnectionState = (state: ClientState) => state.connectionState;
const noPeople: readonly PeopleStripPerson[] = [];

/**
 * The label of docs/PRODUCT.md §2 Chat header: 'Connected', else the lost-connection warning; only
 * the very first connect (before any connection was up) reads 'Connecting...'.
 */
export function connectionLabel(state: ClientState['connectionState'], everConnected = true): string {
  if (state === 'connected') return 'Connected';
  if (state === 'idle' || (state === 'connecting' && !everConnected)) return 'Connecting...';
  return 'Connection Lost - Messages may not send';
}

/**
 * docs/PRODUCT.md §2 Chat header: name, connection label, menu toggle, search, and the five chat
 * actions. On a phone (≤ 768 px, by the theme's CSS) it is one compact row: the search and the
 * actions sit behind a 'Search messages' button and a 'Chat actions' menu button; on wider screens
 * both show in full and those two buttons are hidden.
 */
export function ChatHeader({ chat, searchQuery, onSearchChange, onOpenFiles, onCreateDrop, canInvite = true, onPrefetch, people = noPeople }: ChatHeaderProps) {
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
  const actionsId = useId();
  const [actionsOpen, setActionsOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const actionsToggleRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  // A search with text stays open, so the filter in force is always visible.
  const searching = searchOpen || searchQuery !== '';

  // The phone's actions menu closes on a click anywhere outside the header.
  useEffect(() => {
    if (!actionsOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) setActionsOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [actionsOpen]);

  const onActionsKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && actionsOpen) {
      event.stopPropagation();
      setActionsOpen(false);
      actionsToggleRef.current?.focus();
    }
  };
  // Pointer over or focus on a button: its part starts loading (repeat calls are cheap).
  const intentOf = (part: ChatHeaderPart) => ({ onPointerEnter: () => onPrefetch?.(part), onFocus: () => onPrefetch?.(part) });
  // The same for the buttons that open another page: its code (inside ConfabApp).
  const pageIntent = usePrefetchIntent();
  const toggleSearch = () => {
    if (searching) {
      onSearchChange('');
      setSearchOpen(false);
    } else {
      setSearchOpen(true);
      setActionsOpen(false);
      // The field is shown by this render; focus it once it is.
      requestAnimationFrame(() => searchRef.current?.focus());
    }
  };

  return (
    <header
      ref={headerRef}
      className={['cf-chat-header', searching && 'cf-chat-header--searching', actionsOpen && 'cf-chat-header--actions-open'].filter(Boolean).join(' ')}
    >
      <div className="cf-chat-header__top">
        <SidebarToggle />
        <div className="cf-chat-header__title">
          <h1>{chat.name}</h1>
          <span role="status" className={`cf-connection cf-connection--${lost ? 'lost' : connectionState}`}>
            <span className="cf-connection__dot" aria-hidden="true" />
            {label}
          </span>
        </div>
        <PeopleStrip people={people} />
        <div className="cf-chat-header__search">
          <label htmlFor={searchId} className="cf-visually-hidden">
            Search messages
          </label>
          <input
            ref={searchRef}
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
              } else if (event.key === 'Escape' && searchOpen) {
                event.stopPropagation();
                setSearchOpen(false);
              }
            }}
          />
        </div>
        <button
          type="button"
          className="cf-chat-header__toggle cf-chat-header__search-toggle"
          aria-label={searching ? 'Close search' : 'Search messages'}
          aria-pressed={searching}
          onClick={toggleSearch}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            {searching ? (
              <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zm5-2l4 4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
        </button>
        <button
          ref={actionsToggleRef}
          type="button"
          className="cf-chat-header__toggle cf-chat-header__actions-toggle"
          aria-label="Chat actions"
          aria-expanded={actionsOpen}
          aria-controls={actionsId}
          onClick={() => {
            // The menu shows Chat Files and Create a Drop: load them while the user picks.
            if (!actionsOpen) {
              onPrefetch?.('files');
              onPrefetch?.('createDrop');
            }
            setActionsOpen((open) => !open);
          }}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M12 5.5v.01M12 12v.01M12 18.5v.01" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <nav
        id={actionsId}
        className="cf-chat-header__actions"
        aria-label="Chat actions"
        onKeyDown={onActionsKeyDown}
        // Choosing an action closes the phone's menu.
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('button') !== null) setActionsOpen(false);
        }}
      >
        {canInvite ? (
          <button type="button" className="cf-chip" onClick={() => navigate(`${base}/invite`)} {...pageIntent(`${base}/invite`)}>
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
        <button type="button" className="cf-chip" onClick={onOpenFiles} disabled={onOpenFiles === undefined} {...intentOf('files')}>
          Chat Files
        </button>
        <button type="button" className="cf-chip" onClick={() => navigate(`${base}/drops`)} {...pageIntent(`${base}/drops`)}>
          View Drops
        </button>
        <button type="button" className="cf-chip" onClick={onCreateDrop} disabled={onCreateDrop === undefined} {...intentOf('createDrop')}>
          Create a Drop
        </button>
        <button type="button" className="cf-chip" onClick={() => navigate(`${base}/options`)} {...pageIntent(`${base}/options`)}>
          Chat Options
        </button>
      </nav>
    </header>
  );
}
