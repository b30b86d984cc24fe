import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { PendingInvitation, Typist } from '../protocol';
import { isChatAdmin } from '../records';
import type { AgentNotice, AgentRecord, AgentStatusLine, ChatRecord, ClientMessage, ThreadState, UserRecord } from '../types';

/** The realtime connection's state (docs/PRODUCT.md §4): idle until the first connect. */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'closed';

/** Client state of docs/PRODUCT.md §3, held in a framework-agnostic zustand vanilla store. */
export interface ClientState {
  /** True until ConfabClient.initialize() has checked the stored session. */
  initializing: boolean;
  isAuthenticated: boolean;
  user: UserRecord | null;
  chats: ChatRecord[];
  /** True while client.chats.list() runs. */
  chatsLoading: boolean;
  /** The message of the last failed chat-list load, null after a success. */
  chatsError: string | null;
  currentChat: ChatRecord | null;
  /** The current chat's messages: confirmed ones by seq, then pending and failed ones. */
  messages: ClientMessage[];
  /** True while the current chat has history older than its first loaded message. */
  hasOlderMessages: boolean;
  /** True while a page of the current chat's messages loads. */
  loadingMessages: boolean;
  /** The thread open beside the current chat (client.messages.openThread), null when none. */
  thread: ThreadState | null;
  connectionState: ConnectionState;
  /** Kept equal to connectionState === 'connected'; setting either updates the other. */
  isConnected: boolean;
  /**
   * The signed-in user's agents as client.agents.mine() lists them (their developer agents, then
   * every Confab agent); create, update, remove and agent_presence frames keep it current.
   */
  agents: AgentRecord[];
  /** True while client.agents.mine() runs. */
  agentsLoading: boolean;
  /** The message of the last failed agents load, null after a success. */
  agentsError: string | null;
  /** Status lines of agents working in the open chat ('@deep is searching…'), in arrival order. */
  agentStatuses: AgentStatusLine[];
  /** Notices about the user's own mentions in the open chat (shown to them only, never stored). */
  agentNotices: AgentNotice[];
  /** The signed-in user's pending e-mail invitations (client.invitations.listPending()), newest first. */
  invitations: PendingInvitation[];
  /** True while client.invitations.listPending() runs. */
  invitationsLoading: boolean;
  /** The message of the last failed invitations load, null after a success. */
  invitationsError: string | null;
  /** Who is typing, per chat id, in the order they started (client.presence; docs/CONTRACTS.md, Typing and presence). */
  typists: Record<string, Typist[]>;
  /** Ids of the people known to be online (client.presence): loaded per chat, then followed live. */
  onlineUserIds: string[];
  sidebarOpen: boolean;
  /** Derived: the user is in currentChat's admins. Recomputed on every state change. */
  isCurrentUserAdmin: boolean;
}

/** Named updates of the state; `store.setState` works too and keeps the derived field right. */
export interface ClientActions {
  /** Signs the state in (user) or out (null); isAuthenticated follows. */
  setUser(user: UserRecord | null): void;
  setChats(chats: ChatRecord[]): void;
  setCurrentChat(chat: ChatRecord | null): void;
  setMessages(messages: ClientMessage[]): void;
  setConnected(isConnected: boolean): void;
  setConnectionState(connectionState: ConnectionState): void;
  setAgents(agents: AgentRecord[]): void;
  setSidebarOpen(sidebarOpen: boolean): void;
  setInitializing(initializing: boolean): void;
  /**
   * Back to the signed-out state. `initializing` is kept, since the app has already started, and
   * so is the connection state, which mirrors the realtime connection rather than the session.
   */
  reset(): void;
}

export type ConfabStore = StoreApi<ClientState> & { actions: ClientActions };

export const initialClientState: ClientState = {
  initializing: true,
  isAuthenticated: false,
  user: null,
  chats: [],
  chatsLoading: false,
  chatsError: null,
  currentChat: null,
  messages: [],
  hasOlderMessages: false,
  loadingMessages: false,
  thread: null,
  connectionState: 'idle',
  isConnected: false,
  agents: [],
  agentsLoading: false,
  agentsError: null,
  agentStatuses: [],
  agentNotices: [],
  invitations: [],
  invitationsLoading: false,
  invitationsError: null,
  typists: {},
  onlineUserIds: [],
  sidebarOpen: false,
  isCurrentUserAdmin: false,
};

/**
 * Creates the client store. Actions live on `store.actions` rather than inside the state so that
 * the state stays plain data (easy to snapshot, compare and build in stories).
 *
 * @example
 * const store = createConfabStore();
 * store.actions.setSidebarOpen(true);
 * store.getState().sidebarOpen; // true
 */
export function createConfabStore(initial: Partial<ClientState> = {}): ConfabStore {
  const store = createStore<ClientState>()(() => withDerived({ ...initialClientState, ...initial }));
  deriveOnEverySet(store);
  const set = (partial: Partial<ClientState>) => store.setState(partial);
  const actions: ClientActions = {
    setUser: (user) => set({ user, isAuthenticated: user !== null }),
    setChats: (chats) => set({ chats }),
    setCurrentChat: (currentChat) => set({ currentChat }),
    setMessages: (messages) => set({ messages }),
    setConnected: (isConnected) => set({ isConnected }),
    setConnectionState: (connectionState) => set({ connectionState }),
    setAgents: (agents) => set({ agents }),
    setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
    setInitializing: (initializing) => set({ initializing }),
    reset: () => {
      const { initializing, connectionState } = store.getState();
      store.setState({ ...initialClientState, initializing, connectionState, isConnected: connectionState === 'connected' }, true);
    },
  };
  return Object.assign(store, { actions });
}

function withDerived(state: ClientState): ClientState {
  const isCurrentUserAdmin = isChatAdmin(state.currentChat, state.user?.id);
  return isCurrentUserAdmin === state.isCurrentUserAdmin ? state : { ...state, isCurrentUserAdmin };
}

/*
 * connectionState is the source of truth, but screens and stories written before it existed set
 * isConnected alone; whichever of the two the update names wins.
 */
function syncConnection(next: ClientState, update: Partial<ClientState>): ClientState {
  if ('connectionState' in update) {
    const isConnected = next.connectionState === 'connected';
    return isConnected === next.isConnected ? next : { ...next, isConnected };
  }
  if ('isConnected' in update) {
    if (next.isConnected) return next.connectionState === 'connected' ? next : { ...next, connectionState: 'connected' };
    return next.connectionState === 'connected' ? { ...next, connectionState: 'closed' } : next;
  }
  return next;
}

/*
 * Wraps setState (as zustand middlewares do) so the derived field is computed before listeners
 * run: a subscriber fixing it afterwards would notify everyone twice, once with a stale value.
 */
function deriveOnEverySet(store: StoreApi<ClientState>): void {
  const baseSetState = store.setState;
  const setState = (
    partial: ClientState | Partial<ClientState> | ((state: ClientState) => ClientState | Partial<ClientState>),
    replace?: boolean,
  ): void => {
    const current = store.getState();
    const update = typeof partial === 'function' ? partial(current) : partial;
    const next = replace === true ? (update as ClientState) : { ...current, ...update };
    baseSetState(withDerived(syncConnection(next, update)), true);
  };
  store.setState = setState as StoreApi<ClientState>['setState'];
}
