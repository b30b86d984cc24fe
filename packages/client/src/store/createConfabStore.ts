import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { isChatAdmin } from '../records';
import type { AgentRecord, ChatRecord, NormalizedMessage, UserRecord } from '../types';

/** Client state of spec §3, held in a framework-agnostic zustand vanilla store. */
export interface ClientState {
  /** True until ConfabClient.initialize() has checked the stored session. */
  initializing: boolean;
  isAuthenticated: boolean;
  user: UserRecord | null;
  chats: ChatRecord[];
  currentChat: ChatRecord | null;
  messages: NormalizedMessage[];
  isConnected: boolean;
  agents: AgentRecord[];
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
  setMessages(messages: NormalizedMessage[]): void;
  setConnected(isConnected: boolean): void;
  setAgents(agents: AgentRecord[]): void;
  setSidebarOpen(sidebarOpen: boolean): void;
  setInitializing(initializing: boolean): void;
  /** Back to the signed-out state; `initializing` is kept, since the app has already started. */
  reset(): void;
}

export type ConfabStore = StoreApi<ClientState> & { actions: ClientActions };

export const initialClientState: ClientState = {
  initializing: true,
  isAuthenticated: false,
  user: null,
  chats: [],
  currentChat: null,
  messages: [],
  isConnected: false,
  agents: [],
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
    setAgents: (agents) => set({ agents }),
    setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
    setInitializing: (initializing) => set({ initializing }),
    reset: () => store.setState({ ...initialClientState, initializing: store.getState().initializing }, true),
  };
  return Object.assign(store, { actions });
}

function withDerived(state: ClientState): ClientState {
  const isCurrentUserAdmin = isChatAdmin(state.currentChat, state.user?.id);
  return isCurrentUserAdmin === state.isCurrentUserAdmin ? state : { ...state, isCurrentUserAdmin };
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
    baseSetState(withDerived(next), true);
  };
  store.setState = setState as StoreApi<ClientState>['setState'];
}
