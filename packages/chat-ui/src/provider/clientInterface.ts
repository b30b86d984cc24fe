import type {
  AccountService,
  AgentsService,
  AppConfig,
  ChatsService,
  ConfabClient,
  ConfabStore,
  DropsService,
  FilesService,
  InvitationsService,
  MessagesService,
  PresenceService,
  NotificationsService,
  RealtimeConnection,
} from '@confab/client';

/*
 * Exactly what @confab/chat-ui calls on its client, and nothing more. `ConfabClient` from
 * @confab/client implements it; a host that brings its own transport implements it (or wraps a
 * ConfabClient and replaces a few methods) and passes that to <ConfabProvider client={…}>.
 *
 * Each service is a `Pick` of the matching @confab/client service, so the signatures (and their
 * documentation) are the client's own; the lists below are the methods the screens, components
 * and hooks use. `ConfabClient satisfies ConfabUiClient` is checked at compile time below.
 */

/** The client's state store (zustand vanilla): the hooks read it, the sidebar toggle writes it. */
export type ConfabUiStore = Pick<ConfabStore, 'getState' | 'subscribe' | 'setState'>;

/** Chat list and chat settings (sidebar, create chat, chat options, invite), and the person's read state and mute. */
export type ConfabUiChats = Pick<
  ChatsService,
  | 'list'
  | 'get'
  | 'create'
  | 'update'
  | 'promote'
  | 'demote'
  | 'removeParticipant'
  | 'setAgentPermissions'
  | 'setAutoRouteEnabled'
  | 'setAutoRouteAgent'
  | 'markRead'
  | 'setMuted'
  | 'setNotifyLevel'
  | 'leave'
  | 'remove'
>;

/** The open chat's messages: opened live, paged back, sent with optimistic updates, retried, edited, deleted and reacted to. */
export type ConfabUiMessages = Pick<MessagesService, 'open' | 'closeChat' | 'loadOlder' | 'send' | 'retry' | 'edit' | 'remove' | 'react' | 'unreact'> &
  // Replies' threads (docs/CONTRACTS.md, Replies): optional, so a host's own messages service without them still fits.
  Partial<Pick<MessagesService, 'openThread' | 'closeThread' | 'reveal'>>;

/** Who types and who is online (docs/CONTRACTS.md, Typing and presence); their state lives in `store`. */
export type ConfabUiPresence = Pick<PresenceService, 'typing' | 'loadChat'>;

/** The live connection: connected by the shell when idle; file-change frames refresh Chat Files. */
export type ConfabUiRealtime = Pick<RealtimeConnection, 'state' | 'connect' | 'on'>;

/** Pending, e-mail and link invitations. */
export type ConfabUiInvitations = Pick<
  InvitationsService,
  | 'listPending'
  | 'acceptPending'
  | 'declinePending'
  | 'get'
  | 'acceptEmail'
  | 'acceptShareable'
  | 'acceptAsCurrentUser'
  | 'createShareLink'
  | 'inviteToChat'
  | 'searchUsers'
>;

/** Profile, API keys and the soft-registration flows. */
export type ConfabUiAccount = Pick<
  AccountService,
  'updateUsername' | 'saveApiKeys' | 'loginWithTemporaryPassword' | 'completeSignup' | 'completeAccount'
>;

/** Chat files: upload, list, preview and download URLs, delete. */
export type ConfabUiFiles = Pick<FilesService, 'upload' | 'list' | 'remove' | 'removeMany' | 'fileToken' | 'fileUrl' | 'liveSiteUrl'>;

/** Agent search (autocomplete), My Agents and the admin's Confab agents. */
export type ConfabUiAgents = Pick<
  AgentsService,
  'search' | 'mine' | 'listHosted' | 'create' | 'update' | 'remove' | 'rotateKey' | 'createHosted' | 'removeHosted'
>;

/** Drops: the feeds, a drop, a chat's drops, reactions, follows; their state lives in `store`. */
export type ConfabUiDrops = Pick<
  DropsService,
  | 'store'
  | 'loadFeed'
  | 'loadMore'
  | 'showNewDrops'
  | 'notifications'
  | 'loadDrop'
  | 'loadChatDrops'
  | 'discoverChats'
  | 'createDrop'
  | 'deleteDrop'
  | 'toggleLike'
  | 'toggleBookmark'
  | 'follow'
  | 'unfollow'
>;

/** The e-mail switch and this device's browser notifications (My Profile; docs/CONTRACTS.md, Notifications). */
export type ConfabUiNotifications = Pick<
  NotificationsService,
  'settings' | 'setEmail' | 'browserPermission' | 'browserEnabled' | 'enableBrowser' | 'disableBrowser' | 'showInBrowser'
>;

/**
 * The client interface @confab/chat-ui needs: what `<ConfabProvider client>` accepts.
 *
 * `new ConfabClient()` from @confab/client is the reference implementation. To bring your own
 * transport, implement this interface, or pass a ConfabClient built over your own `fetch`
 * (`new ConfabClient({ baseUrl, fetch })`); docs/embedding.md shows a wrapper that replaces one
 * method and keeps the rest.
 *
 * @example
 * const client: ConfabUiClient = new ConfabClient({ baseUrl: 'https://chat.example.com' });
 * <ConfabProvider client={client}>…</ConfabProvider>
 */
export interface ConfabUiClient {
  /** Client state (docs/PRODUCT.md §3): session, chats, the open chat's messages, connection state… */
  readonly store: ConfabUiStore;
  /** The server's origin; shown in the agent quickstart and used for the image proxy. */
  readonly baseUrl: string;
  readonly chats: ConfabUiChats;
  readonly messages: ConfabUiMessages;
  readonly realtime: ConfabUiRealtime;
  readonly invitations: ConfabUiInvitations;
  readonly account: ConfabUiAccount;
  readonly files: ConfabUiFiles;
  readonly agents: ConfabUiAgents;
  readonly drops: ConfabUiDrops;
  /** Optional, so host clients written before it still fit: without it nobody shows as typing or online. */
  readonly presence?: ConfabUiPresence | undefined;
  /** Optional, so clients written before notifications still fit: My Profile then leaves its section out. */
  readonly notifications?: ConfabUiNotifications | undefined;
  /** The server's public configuration (its mail domain, among others). */
  loadConfig(): Promise<AppConfig>;
  login: ConfabClient['login'];
  register: ConfabClient['register'];
  logout: ConfabClient['logout'];
  requestPasswordReset: ConfabClient['requestPasswordReset'];
  confirmPasswordReset: ConfabClient['confirmPasswordReset'];
}

// The reference client must always implement the interface (a compile-time check, no runtime code).
type Implements<Interface, Implementation extends Interface> = Implementation;
export type ConfabClientImplementsConfabUiClient = Implements<ConfabUiClient, ConfabClient>;
