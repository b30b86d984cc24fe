import { markdownToPlainText } from '../format/plainText';
import type { WireDrop } from '../protocol';
import type { FakeChat } from './fakeBackend';
import { callerId, errorResponse, json, nextRecordId, stamp } from './fakeHttp';

/*
 * The drops routes of the fake backend (docs/CONTRACTS.md "Drops"), bookkeeping only (house
 * style 19): the feed is the drops of the chats in `follows` (newest first), trending and discover
 * are ordered by likes, bookmarks are the caller's bookmarked drops, all paged over a snapshot taken
 * by page 1 (newest bookmark first, un-bookmarked ones left out of later pages, as on the server);
 * like, bookmark, follow, create and delete change the data. Likes and bookmarks are each
 * person's own, as on the server; follows are one signed-in person's. The real ranking, the
 * visibility and permission rules are tested on the real server; a test that needs a refusal
 * scripts it with `backend.override(...)`.
 */

export interface FakeDropsData {
  /**
   * The drops. Their `is_liked` and `is_bookmarked` are what a reader sees before liking or
   * bookmarking that drop themselves (a story's seeded state); `like_count` counts everyone.
   */
  drops: WireDrop[];
  /**
   * Each person's own likes and bookmarks (user id → drop id → state), set by their toggles;
   * `bookmarkedAt` orders the bookmarks (a seeded bookmark has none: it sorts after the toggled ones).
   */
  reactions: Map<string, Map<string, FakeReaction>>;
  /** Chats the caller follows. */
  follows: Set<string>;
  /** Followers of each chat besides the caller. */
  otherFollowers: Map<string, number>;
  /** What GET /api/drops/notifications counts; POST …/read sets it to 0. */
  notificationCount: number;
}

export type FakeDropInput = Partial<WireDrop> & { title: string };

export interface FakeReaction {
  liked: boolean;
  bookmarked: boolean;
  bookmarkedAt?: number;
}

const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'drop';

/** A drop of chat 'chat1' ('Launch') unless given, published `index` hours after 2026-01-01. */
export function buildFakeDrop(input: FakeDropInput, index = 0): WireDrop {
  const chatName = input.chat_name ?? 'Launch';
  return {
    id: nextRecordId('drop'),
    slug: slugOf(input.title),
    excerpt: input.content ? markdownToPlainText(input.content).slice(0, 200) : `What ${input.title} is about.`,
    content: `What ${input.title} is about.`,
    featured_image: '',
    tags: [],
    chat_id: 'chat1',
    chat_name: chatName,
    chat_avatar: chatName.charAt(0).toUpperCase(),
    author_id: 'storyuser000002',
    author_name: 'Bob Builder',
    published_at: stamp(index * 60),
    view_count: 0,
    like_count: 0,
    reading_time: 1,
    is_liked: false,
    is_bookmarked: false,
    can_delete: false,
    ...input,
  };
}

/** The caller's own like and bookmark of a drop: their toggles, else the drop's seeded state. */
function reactionOf(data: FakeDropsData, userId: string, drop: WireDrop): FakeReaction {
  let mine = data.reactions.get(userId);
  if (mine === undefined) data.reactions.set(userId, (mine = new Map()));
  let reaction = mine.get(drop.id);
  if (reaction === undefined) mine.set(drop.id, (reaction = { liked: drop.is_liked, bookmarked: drop.is_bookmarked }));
  return reaction;
}

/** A drop as `userId` reads it: their own is_liked and is_bookmarked. */
export function dropSeenBy(data: FakeDropsData, userId: string, drop: WireDrop): WireDrop {
  const reaction = data.reactions.get(userId)?.get(drop.id);
  return reaction === undefined ? drop : { ...drop, is_liked: reaction.liked, is_bookmarked: reaction.bookmarked };
}

export function createDropRoutes(data: FakeDropsData, chats: FakeChat[]) {
  const snapshots = new Map<string, string[]>();
  const newestFirst = (a: WireDrop, b: WireDrop) => b.published_at.localeCompare(a.published_at);
  const mostLiked = (a: WireDrop, b: WireDrop) => b.like_count - a.like_count || newestFirst(a, b);
  const lists: Record<string, (caller: string) => WireDrop[]> = {
    feed: () => data.drops.filter((drop) => data.follows.has(drop.chat_id)).sort(newestFirst),
    trending: () => [...data.drops].sort(mostLiked),
    discover: () => data.drops.filter((drop) => !data.follows.has(drop.chat_id)).sort(mostLiked),
    bookmarks: (caller) => {
      const at = (drop: WireDrop) => data.reactions.get(caller)?.get(drop.id)?.bookmarkedAt ?? -1;
      return data.drops.filter((drop) => dropSeenBy(data, caller, drop).is_bookmarked).sort((a, b) => at(b) - at(a) || newestFirst(a, b));
    },
  };
  let bookmarkClock = 0;
  const byKey = (key: string) => data.drops.find((drop) => drop.id === key || drop.slug === key);
  const followerCount = (chatId: string) => (data.otherFollowers.get(chatId) ?? 0) + (data.follows.has(chatId) ? 1 : 0);

  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    const path = url.pathname;
    if (!/^\/api\/(drops|follow|discover)(\/|$)/.test(path)) return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'Missing or invalid authentication.');
    const { method } = request;

    const list = /^\/api\/drops\/(feed|trending|discover|bookmarks)$/.exec(path)?.[1];
    if (method === 'GET' && list !== undefined) {
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      let snapshot = url.searchParams.get('snapshot') ?? '';
      let ids = snapshots.get(snapshot);
      if (page === 1 || ids === undefined) {
        snapshot = `snapshot${snapshots.size + 1}`;
        ids = (lists[list]?.(caller) ?? []).map((drop) => drop.id);
        snapshots.set(snapshot, ids);
      }
      const drops = ids.slice((page - 1) * perPage, page * perPage).flatMap((id) => {
        const drop = byKey(id);
        const seen = drop === undefined ? undefined : dropSeenBy(data, caller, drop);
        return seen === undefined || (list === 'bookmarks' && !seen.is_bookmarked) ? [] : [seen];
      });
      return json(200, { drops, has_more: page * perPage < ids.length, total_count: ids.length, snapshot });
    }
    if (method === 'GET' && path === '/api/drops/notifications') {
      return json(200, { count: data.notificationCount, drops: [], last_read_at: stamp(0) });
    }
    if (method === 'POST' && path === '/api/drops/notifications/read') {
      data.notificationCount = 0;
      return new Response(null, { status: 204 });
    }
    const chatDrops = /^\/api\/drops\/chat\/([^/]+)$/.exec(path);
    if (method === 'GET' && chatDrops !== null) {
      const chatId = decodeURIComponent(chatDrops[1] ?? '');
      const record = chats.find((chat) => chat.id === chatId);
      const drops = data.drops.filter((drop) => drop.chat_id === chatId).sort(newestFirst);
      const isParticipant = record?.participants.includes(caller) === true;
      if (!isParticipant && drops.length === 0) return errorResponse(404, 'Chat not found');
      const name = record?.name ?? drops[0]?.chat_name ?? '';
      return json(200, {
        chat: {
          id: chatId,
          name,
          description: record?.description ?? '',
          avatar: name.charAt(0).toUpperCase(),
          is_following: data.follows.has(chatId),
          follower_count: followerCount(chatId),
          drop_count: drops.length,
          is_participant: isParticipant,
        },
        drops: drops.map((drop) => dropSeenBy(data, caller, drop)),
      });
    }
    if (method === 'GET' && path === '/api/discover/chats') {
      const seen = new Map<string, WireDrop[]>();
      for (const drop of data.drops) if (!data.follows.has(drop.chat_id)) seen.set(drop.chat_id, [...(seen.get(drop.chat_id) ?? []), drop]);
      const found = [...seen.entries()].map(([id, drops]) => ({
        id,
        name: drops[0]?.chat_name ?? '',
        avatar: drops[0]?.chat_avatar ?? '',
        drop_count: drops.length,
        follower_count: followerCount(id),
        last_drop_at: drops.map((drop) => drop.published_at).sort().at(-1) ?? '',
      }));
      return json(200, { chats: found.slice(0, 20) });
    }
    const follow = /^\/api\/follow\/([^/]+)$/.exec(path);
    if (follow !== null) {
      const chatId = decodeURIComponent(follow[1] ?? '');
      if (method === 'POST') data.follows.add(chatId);
      else data.follows.delete(chatId);
      return json(200, { chat_id: chatId, following: data.follows.has(chatId), follower_count: followerCount(chatId) });
    }
    if (method === 'POST' && path === '/api/drops') {
      const chat = chats.find((candidate) => candidate.id === body['chat_id'] && candidate.participants.includes(caller));
      if (chat === undefined) return errorResponse(404, 'Chat not found');
      const title = String(body['title'] ?? '').trim();
      const content = String(body['content'] ?? '').trim();
      let slug = slugOf(title);
      for (let suffix = 2; data.drops.some((drop) => drop.slug === slug); suffix += 1) slug = `${slugOf(title)}-${suffix}`;
      const drop = buildFakeDrop({
        title,
        content,
        slug,
        chat_id: chat.id,
        chat_name: chat.name,
        author_id: caller,
        author_name: '',
        published_at: new Date().toISOString().replace('T', ' '),
        can_delete: true,
        tags: [...new Set([...content.matchAll(/#(\w+)/g)].map((match) => (match[1] ?? '').toLowerCase()))],
        reading_time: Math.max(1, Math.round(content.split(/\s+/).length / 200)),
      });
      data.drops.push(drop);
      data.follows.add(chat.id);
      return json(200, drop);
    }
    const one = /^\/api\/drops\/([^/]+)(\/like|\/bookmark)?$/.exec(path);
    const drop = one === null ? undefined : byKey(decodeURIComponent(one[1] ?? ''));
    if (one === null || drop === undefined) return errorResponse(404, 'Drop not found');
    if (method === 'GET' && one[2] === undefined) return json(200, dropSeenBy(data, caller, drop));
    if (method === 'DELETE' && one[2] === undefined) {
      data.drops.splice(data.drops.indexOf(drop), 1);
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && one[2] === '/like') {
      const mine = reactionOf(data, caller, drop);
      mine.liked = !mine.liked;
      drop.like_count += mine.liked ? 1 : -1;
      return json(200, { liked: mine.liked, like_count: drop.like_count });
    }
    if (method === 'POST' && one[2] === '/bookmark') {
      const mine = reactionOf(data, caller, drop);
      mine.bookmarked = !mine.bookmarked;
      mine.bookmarkedAt = (bookmarkClock += 1);
      return json(200, { bookmarked: mine.bookmarked });
    }
    return null;
  };
}
