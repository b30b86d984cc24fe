import type { ChatDropsAnswer, DiscoverChatsAnswer, WireDrop } from '../protocol';

/*
 * The drops routes (docs/CONTRACTS.md "Drops"), bookkeeping only (house style 19), as a fetch that
 * answers /api/drops…, /api/follow… and /api/discover… and hands everything else to `next` (the
 * fake HTTP server). Lists answer `lists[kind]` in order, paged over a snapshot taken by page 1;
 * like and bookmark toggle flags and counts. Ranking, visibility and who may do what are the real
 * server's rules, tested there. A test that needs a refusal sets `failNext`, or `hold()`s answers.
 */

export type FakeDropListKind = 'feed' | 'trending' | 'discover' | 'bookmarks';

export interface FakeDrops {
  /** Every drop the routes know (GET /api/drops/{id or slug}, like, bookmark, delete). */
  drops: WireDrop[];
  /** Ids per list, in the list's order. */
  lists: Record<FakeDropListKind, string[]>;
  chats: ChatDropsAnswer['chat'][];
  discoverChats: DiscoverChatsAnswer['chats'];
  notificationCount: number;
  /** The next drops request answers this instead (then it is cleared). */
  failNext: { status: number; message: string; data?: Record<string, unknown> } | null;
  /** Drops requests seen: 'METHOD /path?query' and the JSON body. */
  requests: Array<{ route: string; body: unknown }>;
  /** Holds every drops answer until the returned function is called. */
  hold(): () => void;
  fetch(next: typeof fetch): typeof fetch;
}

let counter = 0;

export function buildWireDrop(overrides: Partial<WireDrop> = {}): WireDrop {
  counter += 1;
  const id = overrides.id ?? `drop${String(counter).padStart(11, '0')}`;
  return {
    id,
    slug: `drop-${counter}`,
    title: `Drop ${counter}`,
    excerpt: 'An excerpt.',
    content: 'Some **content**.',
    featured_image: '',
    tags: [],
    chat_id: 'chat1',
    chat_name: 'Launch',
    chat_avatar: 'L',
    author_id: 'bob000000000001',
    author_name: 'Bob',
    published_at: '2026-01-01 00:00:00.000Z',
    view_count: 0,
    like_count: 0,
    reading_time: 1,
    is_liked: false,
    is_bookmarked: false,
    can_delete: false,
    ...overrides,
  };
}

const json = (status: number, body: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const failure = (status: number, message: string, data: Record<string, unknown> = {}) => json(status, { status, message, data });

export function createFakeDrops(): FakeDrops {
  const snapshots = new Map<string, string[]>();
  let gate: Promise<void> | null = null;
  const state: FakeDrops = {
    drops: [],
    lists: { feed: [], trending: [], discover: [], bookmarks: [] },
    chats: [],
    discoverChats: [],
    notificationCount: 0,
    failNext: null,
    requests: [],
    hold() {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
      return release;
    },
    fetch: (next) => async (input, init) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if (!/^\/api\/(drops|follow|discover)(\/|$)/.test(url.pathname)) return next(input, init);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      state.requests.push({ route: `${method} ${url.pathname}${url.search}`, body });
      if (gate !== null) await gate;
      if (state.failNext !== null) {
        const { status, message, data } = state.failNext;
        state.failNext = null;
        return failure(status, message, data);
      }
      return answer(method, url, body);
    },
  };

  const byKey = (key: string) => state.drops.find((drop) => drop.id === key || drop.slug === key);

  const answer = (method: string, url: URL, body: Record<string, unknown>): Response => {
    const path = url.pathname;
    const list = /^\/api\/drops\/(feed|trending|discover|bookmarks)$/.exec(path)?.[1] as FakeDropListKind | undefined;
    if (method === 'GET' && list !== undefined) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      let snapshot = url.searchParams.get('snapshot') ?? '';
      let ids = snapshots.get(snapshot);
      if (page === 1 || ids === undefined) {
        snapshot = `snap${snapshots.size + 1}`;
        ids = [...state.lists[list]];
        snapshots.set(snapshot, ids);
      }
      const drops = ids.slice((page - 1) * perPage, page * perPage).flatMap((id) => byKey(id) ?? []);
      return json(200, { drops, has_more: page * perPage < ids.length, total_count: ids.length, snapshot });
    }
    const chatDrops = /^\/api\/drops\/chat\/([^/]+)$/.exec(path);
    if (method === 'GET' && chatDrops) {
      const chat = state.chats.find((candidate) => candidate.id === decodeURIComponent(chatDrops[1] ?? ''));
      if (chat === undefined) return failure(404, 'Chat not found');
      return json(200, { chat, drops: state.drops.filter((drop) => drop.chat_id === chat.id) });
    }
    if (method === 'GET' && path === '/api/drops/notifications') return json(200, { count: state.notificationCount, drops: [], last_read_at: '' });
    if (method === 'POST' && path === '/api/drops/notifications/read') {
      state.notificationCount = 0;
      return json(204, undefined);
    }
    if (method === 'GET' && path === '/api/discover/chats') return json(200, { chats: state.discoverChats });
    const follow = /^\/api\/follow\/([^/]+)$/.exec(path);
    if (follow) {
      const chatId = decodeURIComponent(follow[1] ?? '');
      const chat = state.chats.find((candidate) => candidate.id === chatId);
      const following = method === 'POST';
      if (chat !== undefined && chat.is_following !== following) {
        chat.is_following = following;
        chat.follower_count += following ? 1 : -1;
      }
      return json(200, { chat_id: chatId, following, follower_count: chat?.follower_count ?? (following ? 1 : 0) });
    }
    if (method === 'POST' && path === '/api/drops') {
      const drop = buildWireDrop({ chat_id: String(body['chat_id']), title: String(body['title']), content: String(body['content']), can_delete: true });
      drop.slug = drop.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
      state.drops.unshift(drop);
      return json(200, drop);
    }
    const one = /^\/api\/drops\/([^/]+)(\/like|\/bookmark)?$/.exec(path);
    const drop = one ? byKey(decodeURIComponent(one[1] ?? '')) : undefined;
    if (one === null || drop === undefined) return failure(404, 'Drop not found');
    if (method === 'GET' && one[2] === undefined) return json(200, drop);
    if (method === 'DELETE' && one[2] === undefined) {
      state.drops.splice(state.drops.indexOf(drop), 1);
      return json(204, undefined);
    }
    if (method === 'POST' && one[2] === '/like') {
      drop.is_liked = !drop.is_liked;
      drop.like_count += drop.is_liked ? 1 : -1;
      return json(200, { liked: drop.is_liked, like_count: drop.like_count });
    }
    if (method === 'POST' && one[2] === '/bookmark') {
      drop.is_bookmarked = !drop.is_bookmarked;
      return json(200, { bookmarked: drop.is_bookmarked });
    }
    return failure(404, "The requested resource wasn't found.");
  };

  return state;
}
