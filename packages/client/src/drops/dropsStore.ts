import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { constants, type FeedTab } from '../constants';
import type { ChatDropsAnswer, DiscoverChatsAnswer, WireDrop } from '../protocol';

/** A chat of GET /api/discover/chats. */
export type DiscoverChat = DiscoverChatsAnswer['chats'][number];

/** The chat of GET /api/drops/chat/{id}. */
export type DropsChat = ChatDropsAnswer['chat'];

/** The feed screen's state (docs/PRODUCT.md §4 Feed): one tab at a time, pages appended while has_more. */
export interface DropsFeedState {
  tab: FeedTab;
  drops: WireDrop[];
  /** Pages loaded so far; 0 before page 1 has answered. */
  page: number;
  has_more: boolean;
  total_count: number;
  /** Page 1 is loading (a tab was opened or reloaded). */
  loading: boolean;
  /** A further page is loading (Load More). */
  loadingMore: boolean;
  /** The docs/PRODUCT.md §8 client text of the last failed load ('Failed to fetch feed', …), null after a success. */
  error: string | null;
  /** Page 1's snapshot, passed back with pages 2, 3 … (docs/CONTRACTS.md "Drops" paging); '' before page 1. */
  snapshot: string;
}

/** One chat's drops (/chat/{id}/drops). */
export interface ChatDropsState {
  chatId: string;
  chat: DropsChat | null;
  drops: WireDrop[];
  loading: boolean;
  error: string | null;
  /** 404: no such chat, or one without drops that the user is not in. */
  notFound: boolean;
}

/** The drop of /drops/{slug}. */
export interface DropViewState {
  /** The slug or id it was opened with. */
  key: string;
  drop: WireDrop | null;
  loading: boolean;
  error: string | null;
  /** 404 'Drop not found' (or deleted). */
  notFound: boolean;
}

export interface DiscoverChatsState {
  chats: DiscoverChat[];
  loading: boolean;
  error: string | null;
}

/** Everything the drops screens show, in a zustand vanilla store of its own (client.drops.store). */
export interface DropsState {
  feed: DropsFeedState;
  /**
   * Drops that arrived live (`drop_published`) and are not in the feed yet, newest first: the
   * Following feed's 'New drops' indicator. Cleared when the Following feed loads or shows them.
   */
  newDrops: WireDrop[];
  /** Unread drops in followed chats: GET /api/drops/notifications, plus one per live drop. */
  notificationCount: number;
  chatDrops: ChatDropsState;
  drop: DropViewState;
  discover: DiscoverChatsState;
  /** Whether the user follows a chat, as far as follow answers and chat drops answers told. */
  following: Record<string, boolean>;
  /** Like and bookmark requests in flight (`like:<id>`, `bookmark:<id>`): a second toggle waits. */
  pending: Record<string, true>;
}

export type DropsStore = StoreApi<DropsState>;

export const initialFeedState: DropsFeedState = {
  tab: constants.defaultFeedTab,
  drops: [],
  page: 0,
  has_more: false,
  total_count: 0,
  loading: false,
  loadingMore: false,
  error: null,
  snapshot: '',
};

export const initialDropsState: DropsState = {
  feed: initialFeedState,
  newDrops: [],
  notificationCount: 0,
  chatDrops: { chatId: '', chat: null, drops: [], loading: false, error: null, notFound: false },
  drop: { key: '', drop: null, loading: false, error: null, notFound: false },
  discover: { chats: [], loading: false, error: null },
  following: {},
  pending: {},
};

/**
 * Creates the drops store.
 *
 * @example
 * const store = createDropsStore();
 * store.getState().feed.tab; // 'following'
 */
export function createDropsStore(initial: Partial<DropsState> = {}): DropsStore {
  return createStore<DropsState>()(() => ({ ...initialDropsState, ...initial }));
}

/** The drop with this id wherever a screen shows it (feed, new drops, a chat's drops, the open drop). */
export function findDrop(state: DropsState, id: string): WireDrop | undefined {
  const byId = (drop: WireDrop) => drop.id === id;
  return (
    (state.drop.drop?.id === id ? state.drop.drop : undefined) ??
    state.feed.drops.find(byId) ??
    state.chatDrops.drops.find(byId) ??
    state.newDrops.find(byId)
  );
}

/** The state with `patch` applied to every copy of the drop with this id. */
export function patchDrop(state: DropsState, id: string, patch: Partial<WireDrop>): Partial<DropsState> {
  const apply = (drops: WireDrop[]) => (drops.some((drop) => drop.id === id) ? drops.map((drop) => (drop.id === id ? { ...drop, ...patch } : drop)) : drops);
  return {
    feed: { ...state.feed, drops: apply(state.feed.drops) },
    newDrops: apply(state.newDrops),
    chatDrops: { ...state.chatDrops, drops: apply(state.chatDrops.drops) },
    drop: state.drop.drop?.id === id ? { ...state.drop, drop: { ...state.drop.drop, ...patch } } : state.drop,
  };
}

/** The feed without the drop with this id, counted one fewer when it was there. */
export function withoutFeedDrop(feed: DropsFeedState, id: string): DropsFeedState {
  if (!feed.drops.some((drop) => drop.id === id)) return feed;
  return { ...feed, drops: feed.drops.filter((drop) => drop.id !== id), total_count: Math.max(0, feed.total_count - 1) };
}

/** The state without the drop with this id (it was deleted). */
export function withoutDrop(state: DropsState, id: string): Partial<DropsState> {
  const keep = (drop: WireDrop) => drop.id !== id;
  return {
    feed: withoutFeedDrop(state.feed, id),
    newDrops: state.newDrops.filter(keep),
    chatDrops: { ...state.chatDrops, drops: state.chatDrops.drops.filter(keep) },
    drop: state.drop.drop?.id === id ? { ...state.drop, drop: null, notFound: true } : state.drop,
  };
}

/** `drops` followed by those of `more` it does not hold yet (pages never repeat a drop). */
export function appendDrops(drops: WireDrop[], more: WireDrop[]): WireDrop[] {
  const known = new Set(drops.map((drop) => drop.id));
  return [...drops, ...more.filter((drop) => !known.has(drop.id))];
}
