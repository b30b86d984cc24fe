/**
 * The drops' part of the wire contract (docs/CONTRACTS.md "Drops"): the answers of the
 * drops, follow and discover endpoints and the realtime frame of a new drop. Types and constants
 * only; re-exported by `./index.ts`.
 */

/** A drop as every signed-in user reads it (docs/PRODUCT.md §3 Drop), with the caller's own flags. */
export interface WireDrop {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  /** Markdown as the author wrote it: render it with the message sanitiser, never as raw HTML. */
  content: string;
  /** The first http(s) image in the content, or ''. */
  featured_image: string;
  /** From #hashtags in the content, lower-cased, each once, in order. */
  tags: string[];
  chat_id: string;
  chat_name: string;
  /** The chat's initial (spec: chat avatar), upper-cased. */
  chat_avatar: string;
  author_id: string;
  author_name: string;
  published_at: string;
  view_count: number;
  like_count: number;
  /** Minutes, at least 1. */
  reading_time: number;
  is_liked: boolean;
  is_bookmarked: boolean;
  /** The caller may delete it (its author, or an admin of its chat). */
  can_delete: boolean;
}

/**
 * GET /api/drops/feed | trending | discover | bookmarks. Pages are cut from a snapshot taken by
 * page 1: pass its `snapshot` back with page 2, 3 …, and no drop repeats or goes missing while
 * likes and new drops arrive (a new drop appears on the next page-1 load, or live).
 */
export interface DropListAnswer {
  drops: WireDrop[];
  has_more: boolean;
  total_count: number;
  /** Echo with the next pages; valid 1 hour. A stale or unknown one starts a new snapshot. */
  snapshot: string;
}

/** GET /api/drops/chat/{id}. */
export interface ChatDropsAnswer {
  chat: { id: string; name: string; description: string; avatar: string; is_following: boolean; follower_count: number; drop_count: number; is_participant: boolean };
  drops: WireDrop[];
}

/** POST /api/drops/{id}/like. */
export interface LikeAnswer {
  liked: boolean;
  like_count: number;
}

/** POST /api/drops/{id}/bookmark. */
export interface BookmarkAnswer {
  bookmarked: boolean;
}

/** POST / DELETE /api/follow/{chat id}. */
export interface FollowAnswer {
  chat_id: string;
  following: boolean;
  follower_count: number;
}

/** GET /api/discover/chats: chats with drops that I do not follow, most active first. */
export interface DiscoverChatsAnswer {
  chats: { id: string; name: string; avatar: string; drop_count: number; follower_count: number; last_drop_at: string }[];
}

/** GET /api/drops/notifications: drops in followed chats published since I last marked them read. */
export interface DropNotificationsAnswer {
  count: number;
  drops: WireDrop[];
  last_read_at: string;
}

/** A drop was published in a chat the user follows (to that user's sockets). */
export interface DropPublishedFrame {
  type: 'drop_published';
  drop: WireDrop;
}

/** Limits of drops both sides know (docs/PRODUCT.md §9). */
export const dropLimits = {
  titleMaxLength: 100,
  contentMaxLength: 2000,
  defaultPerPage: 20,
  maxPerPage: 100,
} as const;

/** Paths under /api/drops/ that are not drops: no slug may equal one. */
export const reservedDropSlugs = ['feed', 'trending', 'discover', 'chat', 'notifications', 'bookmarks', 'new', 'create'] as const;
