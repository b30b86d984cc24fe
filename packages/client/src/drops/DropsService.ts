import { constants, type FeedTab } from '../constants';
import { ConfabError, toConfabError } from '../errors';
import type { BookmarkAnswer, ChatDropsAnswer, DiscoverChatsAnswer, DropListAnswer, DropNotificationsAnswer, FollowAnswer, LikeAnswer, WireDrop } from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ConfabStore } from '../store/createConfabStore';
import { LatestOnly } from '../store/latestOnly';
import type { CreateDropInput } from '../types';
import { normalizeDrop, validateDrop } from '../validation/content';
import { messages } from '../validation/messages';
import { appendDrops, createDropsStore, findDrop, initialDropsState, initialFeedState, patchDrop, withoutDrop, withoutFeedDrop } from './dropsStore';
import type { DiscoverChat, DropsStore } from './dropsStore';

export type { CreateDropInput };

type Request = <Result>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) => Promise<Result>;

export interface DropsServiceDependencies {
  request: Request;
  /** Its `drop_published` frames bring new drops of followed chats ('New drops', the badge). */
  realtime: RealtimeConnection;
  /** The client store: a new session starts the drops state afresh; its user tells own drops apart. */
  session: ConfabStore;
}

export interface DropsPageOptions {
  /** Page 1's `snapshot`, for pages 2, 3 … (docs/CONTRACTS.md "Drops" paging). */
  snapshot?: string | undefined;
  /** Default 20 (docs/PRODUCT.md §9), at most 100. */
  perPage?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** The lists a page of drops comes from: the feed tabs (the user's bookmarks among them). */
export type DropListKind = FeedTab;

const listPaths: Record<DropListKind, string> = {
  following: '/api/drops/feed',
  trending: '/api/drops/trending',
  discover: '/api/drops/discover',
  bookmarks: '/api/drops/bookmarks',
};

const listFailures: Record<DropListKind, string> = {
  following: messages.fetchFeedFailed,
  trending: messages.fetchTrendingFailed,
  discover: messages.fetchDiscoveryFailed,
  bookmarks: messages.fetchBookmarksFailed,
};

const dropPath = (id: string) => `/api/drops/${encodeURIComponent(id)}`;
const followPath = (chatId: string) => `/api/follow/${encodeURIComponent(chatId)}`;

/**
 * The failure of a drops call with the docs/PRODUCT.md §8 client text ('Failed to fetch feed', …)
 * as its message; status, the server's body (`serverMessage`), field errors and isAbort are kept.
 */
function dropsError(error: unknown, text: string): ConfabError {
  const failure = toConfabError(error);
  return new ConfabError(text, failure.status, { data: failure.data, fieldErrors: failure.fieldErrors, isAbort: failure.isAbort, cause: failure });
}

/**
 * Drops (docs/CONTRACTS.md "Drops"): the docs/PRODUCT.md §7 feed service (getFeed, getTrending,
 * getDiscover, getChatDrops, getDrop, toggleLike, toggleBookmark) plus follow, discover,
 * create, delete, bookmarks and notifications; every failure rejects with a ConfabError whose
 * message is the docs/PRODUCT.md §8 text. The screens' state lives in `store` (its own zustand
 * vanilla store): the `load…` methods fill it, toggles and follows update it optimistically, and
 * `drop_published` frames add the 'New drops' of the Following feed and bump the badge.
 *
 * @example
 * await client.drops.loadFeed('trending');
 * client.drops.store.getState().feed.drops; // page 1
 * await client.drops.loadMore();            // page 2, cut from page 1's snapshot
 */
export class DropsService {
  readonly store: DropsStore = createDropsStore();
  // Only the newest load of each kind writes to the store (store/latestOnly.ts).
  private readonly feedLoads = new LatestOnly();
  private readonly chatLoads = new LatestOnly();
  private readonly dropLoads = new LatestOnly();
  private readonly discoverLoads = new LatestOnly();
  /** Renewed by every notifications request and read mark: an older answer must not win. */
  private readonly notificationLoads = new LatestOnly();
  /** notifications() ran in this session: a reconnect loads the count again (frames may have been missed). */
  private notificationsLoaded = false;

  constructor(private readonly dependencies: DropsServiceDependencies) {
    const { realtime, session } = dependencies;
    realtime.on('drop_published', ({ drop }) => this.receive(drop));
    realtime.on('state', ({ state }) => {
      if (state === 'connected' && this.notificationsLoaded) void this.notifications().catch(() => {});
    });
    // Another session must not see this one's drops, flags or counts.
    session.subscribe((state, previous) => {
      if (state.user?.id === previous.user?.id) return;
      for (const loads of [this.feedLoads, this.chatLoads, this.dropLoads, this.discoverLoads, this.notificationLoads]) loads.renew();
      this.notificationsLoaded = false;
      this.store.setState(initialDropsState, true);
    });
  }

  // The docs/PRODUCT.md §7 feed service: one call, one answer, nothing stored.

  /** GET /api/drops/feed: drops of the chats the user follows, newest first. */
  getFeed(page = 1, options: DropsPageOptions = {}): Promise<DropListAnswer> {
    return this.list('following', page, options);
  }

  /** GET /api/drops/trending. */
  getTrending(page = 1, options: DropsPageOptions = {}): Promise<DropListAnswer> {
    return this.list('trending', page, options);
  }

  /** GET /api/drops/discover: drops from chats the user does not follow. */
  getDiscover(page = 1, options: DropsPageOptions = {}): Promise<DropListAnswer> {
    return this.list('discover', page, options);
  }

  /** GET /api/drops/bookmarks: the user's bookmarked drops, newest bookmark first. */
  bookmarks(page = 1, options: DropsPageOptions = {}): Promise<DropListAnswer> {
    return this.list('bookmarks', page, options);
  }

  /** One page of a list; pass page 1's `snapshot` with the pages after it. */
  async list(kind: DropListKind, page = 1, options: DropsPageOptions = {}): Promise<DropListAnswer> {
    const parameters = new URLSearchParams({ page: String(page), per_page: String(options.perPage ?? constants.drop.listPerPage) });
    if (options.snapshot !== undefined && options.snapshot !== '') parameters.set('snapshot', options.snapshot);
    try {
      return await this.dependencies.request<DropListAnswer>(`${listPaths[kind]}?${parameters.toString()}`, options.signal ? { signal: options.signal } : {});
    } catch (error) {
      throw dropsError(error, listFailures[kind]);
    }
  }

  /** GET /api/drops/chat/{id}: the chat (name, follow state, counts) and its drops. */
  async getChatDrops(chatId: string, signal?: AbortSignal): Promise<ChatDropsAnswer> {
    try {
      return await this.dependencies.request<ChatDropsAnswer>(`/api/drops/chat/${encodeURIComponent(chatId)}`, signal ? { signal } : {});
    } catch (error) {
      throw dropsError(error, messages.fetchChatDropsFailed);
    }
  }

  /** GET /api/drops/{slug or id}; rejects with status 404 for an unknown or deleted drop. */
  async getDrop(slugOrId: string, signal?: AbortSignal): Promise<WireDrop> {
    try {
      return await this.dependencies.request<WireDrop>(dropPath(slugOrId), signal ? { signal } : {});
    } catch (error) {
      throw dropsError(error, messages.fetchDropFailed);
    }
  }

  /**
   * Likes or unlikes a drop (docs/PRODUCT.md §4): every copy in the store flips at once and takes
   * the server's count when it answers; a failure restores what was there and rejects. While a like
   * of this drop is in flight a second one sends nothing and resolves null.
   */
  toggleLike(id: string): Promise<LikeAnswer | null> {
    return this.toggle(`like:${id}`, id, {
      flip: (drop) => ({ is_liked: !drop.is_liked, like_count: Math.max(0, drop.like_count + (drop.is_liked ? -1 : 1)) }),
      restore: (drop) => ({ is_liked: drop.is_liked, like_count: drop.like_count }),
      send: () => this.dependencies.request<LikeAnswer>(`${dropPath(id)}/like`, { method: 'POST' }),
      settle: (answer) => ({ is_liked: answer.liked, like_count: answer.like_count }),
      failure: messages.toggleLikeFailed,
    });
  }

  /**
   * Bookmarks or un-bookmarks a drop, like toggleLike: optimistic, rolled back on failure, one at a
   * time. The Saved tab ('bookmarks') lists bookmarked drops only: one un-bookmarked there leaves
   * it once the server has agreed.
   */
  async toggleBookmark(id: string): Promise<BookmarkAnswer | null> {
    const answer = await this.toggle(`bookmark:${id}`, id, {
      flip: (drop) => ({ is_bookmarked: !drop.is_bookmarked }),
      restore: (drop) => ({ is_bookmarked: drop.is_bookmarked }),
      send: () => this.dependencies.request<BookmarkAnswer>(`${dropPath(id)}/bookmark`, { method: 'POST' }),
      settle: (answer) => ({ is_bookmarked: answer.bookmarked }),
      failure: messages.toggleBookmarkFailed,
    });
    if (answer !== null && !answer.bookmarked) this.store.setState((state) => (state.feed.tab === 'bookmarks' ? { feed: withoutFeedDrop(state.feed, id) } : {}));
    return answer;
  }

  /** True while a like (or bookmark) of this drop is in flight. */
  isPending(kind: 'like' | 'bookmark', id: string): boolean {
    return this.store.getState().pending[`${kind}:${id}`] === true;
  }

  private async toggle<Answer>(
    key: string,
    id: string,
    steps: {
      flip: (drop: WireDrop) => Partial<WireDrop>;
      restore: (drop: WireDrop) => Partial<WireDrop>;
      send: () => Promise<Answer>;
      settle: (answer: Answer) => Partial<WireDrop>;
      failure: string;
    },
  ): Promise<Answer | null> {
    const { store } = this;
    if (store.getState().pending[key]) return null;
    const before = findDrop(store.getState(), id);
    store.setState((state) => ({ pending: { ...state.pending, [key]: true }, ...(before ? patchDrop(state, id, steps.flip(before)) : {}) }));
    const done = () => {
      const { [key]: _finished, ...pending } = store.getState().pending;
      store.setState({ pending });
    };
    try {
      const answer = await steps.send();
      store.setState((state) => patchDrop(state, id, steps.settle(answer)));
      return answer;
    } catch (error) {
      if (before) store.setState((state) => patchDrop(state, id, steps.restore(before)));
      throw dropsError(error, steps.failure);
    } finally {
      done();
    }
  }

  /** Follows a chat: its drops join the Following feed (from its next load). Idempotent. */
  async follow(chatId: string): Promise<FollowAnswer> {
    return this.setFollowing(chatId, 'POST', messages.followChatFailed);
  }

  /** Stops following a chat. Idempotent. */
  async unfollow(chatId: string): Promise<FollowAnswer> {
    return this.setFollowing(chatId, 'DELETE', messages.unfollowChatFailed);
  }

  private async setFollowing(chatId: string, method: 'POST' | 'DELETE', failure: string): Promise<FollowAnswer> {
    let answer: FollowAnswer;
    try {
      answer = await this.dependencies.request<FollowAnswer>(followPath(chatId), { method });
    } catch (error) {
      throw dropsError(error, failure);
    }
    this.store.setState((state) => {
      const chat = state.chatDrops.chat;
      return {
        following: { ...state.following, [chatId]: answer.following },
        chatDrops:
          chat !== null && chat.id === chatId
            ? { ...state.chatDrops, chat: { ...chat, is_following: answer.following, follower_count: answer.follower_count } }
            : state.chatDrops,
        discover: {
          ...state.discover,
          chats: state.discover.chats.map((candidate) => (candidate.id === chatId ? { ...candidate, follower_count: answer.follower_count } : candidate)),
        },
      };
    });
    return answer;
  }

  /** GET /api/discover/chats (chats with drops the user does not follow, at most 20) into store.discover. */
  async discoverChats(): Promise<DiscoverChat[]> {
    const latest = this.discoverLoads.renew();
    this.store.setState((state) => ({ discover: { ...state.discover, loading: true, error: null } }));
    try {
      const answer = await this.dependencies.request<DiscoverChatsAnswer>('/api/discover/chats');
      const chats = answer?.chats ?? [];
      if (!latest.aborted) {
        this.store.setState((state) => ({
          discover: { chats, loading: false, error: null },
          // Listed here means not followed, whatever an earlier answer said.
          following: { ...state.following, ...Object.fromEntries(chats.map((chat) => [chat.id, false])) },
        }));
      }
      return chats;
    } catch (error) {
      const failure = dropsError(error, messages.discoverChatsFailed);
      if (!latest.aborted) this.store.setState((state) => ({ discover: { ...state.discover, loading: false, error: failure.message } }));
      throw failure;
    }
  }

  /**
   * Publishes a drop from a chat (participants only). Title and content are trimmed and checked
   * first (docs/PRODUCT.md §5): an invalid one rejects with the exact text (status 400) without a
   * request. Resolves with the drop; open it at /drops/{slug}.
   */
  async createDrop(input: CreateDropInput): Promise<WireDrop> {
    const invalid = validateDrop(input);
    if (invalid !== null) throw new ConfabError(invalid, 400);
    const { title, content } = normalizeDrop(input);
    let drop: WireDrop;
    try {
      drop = await this.dependencies.request<WireDrop>('/api/drops', { method: 'POST', body: { chat_id: input.chat_id, title, content } });
    } catch (error) {
      throw dropsError(error, messages.createDropFailed);
    }
    this.store.setState((state) => ({
      following: { ...state.following, [drop.chat_id]: true },
      chatDrops: state.chatDrops.chatId === drop.chat_id ? { ...state.chatDrops, drops: appendDrops([drop], state.chatDrops.drops) } : state.chatDrops,
    }));
    return drop;
  }

  /** Deletes a drop (its author or an admin of its chat); it leaves every list in the store. */
  async deleteDrop(id: string): Promise<void> {
    try {
      await this.dependencies.request<void>(dropPath(id), { method: 'DELETE' });
    } catch (error) {
      throw dropsError(error, messages.deleteDropFailed);
    }
    this.store.setState((state) => withoutDrop(state, id));
  }

  /** GET /api/drops/notifications: unread drops of followed chats; the count goes to store.notificationCount. */
  async notifications(): Promise<DropNotificationsAnswer> {
    const latest = this.notificationLoads.renew();
    this.notificationsLoaded = true;
    let answer: DropNotificationsAnswer;
    try {
      answer = await this.dependencies.request<DropNotificationsAnswer>('/api/drops/notifications');
    } catch (error) {
      throw dropsError(error, messages.fetchNotificationsFailed);
    }
    if (!latest.aborted) this.store.setState({ notificationCount: answer.count });
    return answer;
  }

  /** POST /api/drops/notifications/read: everything up to now is read; the badge goes to 0 at once. */
  async markNotificationsRead(): Promise<void> {
    this.notificationLoads.renew();
    this.store.setState({ notificationCount: 0 });
    try {
      await this.dependencies.request<void>('/api/drops/notifications/read', { method: 'POST' });
    } catch (error) {
      throw dropsError(error, messages.fetchNotificationsFailed);
    }
  }

  // The screens' state.

  /**
   * Opens a feed tab at page 1 (docs/PRODUCT.md §4: switching tabs resets to page 1) with a new
   * snapshot. The Following feed also takes in the 'New drops' and marks notifications read.
   */
  async loadFeed(tab: FeedTab): Promise<void> {
    const latest = this.feedLoads.renew();
    this.store.setState({ feed: { ...initialFeedState, tab, loading: true } });
    try {
      const answer = await this.list(tab, 1);
      if (latest.aborted) return;
      this.store.setState((state) => ({
        feed: { tab, drops: answer.drops, page: 1, has_more: answer.has_more, total_count: answer.total_count, loading: false, loadingMore: false, error: null, snapshot: answer.snapshot },
        newDrops: tab === 'following' ? [] : state.newDrops,
      }));
      if (tab === 'following') void this.markNotificationsRead().catch(() => {});
    } catch (error) {
      const failure = toConfabError(error);
      if (latest.aborted) return;
      this.store.setState((state) => ({ feed: { ...state.feed, loading: false, error: failure.isAbort ? null : failure.message } }));
      throw failure;
    }
  }

  /** Appends the next page of the open tab while has_more (docs/PRODUCT.md §4 Load More); nothing otherwise. */
  async loadMore(): Promise<void> {
    const { feed } = this.store.getState();
    if (feed.page === 0 || !feed.has_more || feed.loading || feed.loadingMore) return;
    const latest = this.feedLoads.signal;
    this.store.setState((state) => ({ feed: { ...state.feed, loadingMore: true, error: null } }));
    try {
      const answer = await this.list(feed.tab, feed.page + 1, { snapshot: feed.snapshot });
      if (latest.aborted) return;
      this.store.setState((state) => ({
        feed: {
          ...state.feed,
          drops: appendDrops(state.feed.drops, answer.drops),
          page: state.feed.page + 1,
          has_more: answer.has_more,
          total_count: answer.total_count,
          loadingMore: false,
          // A stale snapshot was replaced by the server: the pages after this one follow the new one.
          snapshot: answer.snapshot || state.feed.snapshot,
        },
      }));
    } catch (error) {
      const failure = toConfabError(error);
      if (latest.aborted) return;
      this.store.setState((state) => ({ feed: { ...state.feed, loadingMore: false, error: failure.isAbort ? null : failure.message } }));
      throw failure;
    }
  }

  /** Puts the 'New drops' at the top of the Following feed and marks notifications read. */
  showNewDrops(): void {
    const { feed, newDrops } = this.store.getState();
    if (newDrops.length === 0) return;
    if (feed.tab === 'following' && feed.page > 0) {
      const known = new Set(feed.drops.map((drop) => drop.id));
      const fresh = newDrops.filter((drop) => !known.has(drop.id));
      this.store.setState({ feed: { ...feed, drops: [...fresh, ...feed.drops], total_count: feed.total_count + fresh.length }, newDrops: [] });
    } else {
      this.store.setState({ newDrops: [] });
    }
    void this.markNotificationsRead().catch(() => {});
  }

  /** Opens /chat/{id}/drops: the chat and its drops into store.chatDrops. */
  async loadChatDrops(chatId: string): Promise<void> {
    const latest = this.chatLoads.renew();
    this.store.setState((state) => ({
      chatDrops: {
        chatId,
        // Reloading the same chat keeps what it shows until the answer replaces it.
        chat: state.chatDrops.chatId === chatId ? state.chatDrops.chat : null,
        drops: state.chatDrops.chatId === chatId ? state.chatDrops.drops : [],
        loading: true,
        error: null,
        notFound: false,
      },
    }));
    try {
      const answer = await this.getChatDrops(chatId);
      if (latest.aborted) return;
      this.store.setState((state) => ({
        chatDrops: { chatId, chat: answer.chat, drops: answer.drops, loading: false, error: null, notFound: false },
        following: { ...state.following, [chatId]: answer.chat.is_following },
      }));
    } catch (error) {
      const failure = toConfabError(error);
      if (latest.aborted) return;
      this.store.setState((state) => ({
        chatDrops: { ...state.chatDrops, loading: false, notFound: failure.status === 404, error: failure.isAbort || failure.status === 404 ? null : failure.message },
      }));
      throw failure;
    }
  }

  /** Opens /drops/{slug}: the drop into store.drop (404: notFound). */
  async loadDrop(slugOrId: string): Promise<void> {
    const latest = this.dropLoads.renew();
    this.store.setState((state) => ({
      drop: { key: slugOrId, drop: state.drop.key === slugOrId ? state.drop.drop : null, loading: true, error: null, notFound: false },
    }));
    try {
      const drop = await this.getDrop(slugOrId);
      if (latest.aborted) return;
      this.store.setState({ drop: { key: slugOrId, drop, loading: false, error: null, notFound: false } });
    } catch (error) {
      const failure = toConfabError(error);
      if (latest.aborted) return;
      this.store.setState((state) => ({
        drop: { ...state.drop, loading: false, notFound: failure.status === 404, error: failure.isAbort || failure.status === 404 ? null : failure.message },
      }));
      throw failure;
    }
  }

  /**
   * A drop published in a followed chat (`drop_published`). Someone else's goes to the 'New
   * drops' and bumps the badge; the open chat's drops show it at once. The author's own drop is
   * not news to them.
   */
  private receive(drop: WireDrop): void {
    this.store.setState((state) => {
      const next: Partial<typeof state> = {};
      if (state.chatDrops.chatId === drop.chat_id && !state.chatDrops.drops.some((known) => known.id === drop.id)) {
        next.chatDrops = { ...state.chatDrops, drops: [drop, ...state.chatDrops.drops] };
      }
      const own = drop.author_id === this.dependencies.session.getState().user?.id;
      const known = state.newDrops.some((candidate) => candidate.id === drop.id) || (state.feed.tab === 'following' && state.feed.drops.some((candidate) => candidate.id === drop.id));
      if (!own && !known) {
        next.newDrops = [drop, ...state.newDrops];
        next.notificationCount = state.notificationCount + 1;
      }
      return next;
    });
  }
}
