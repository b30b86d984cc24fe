import { randomBytes } from 'node:crypto';
import type {
  BookmarkAnswer,
  ChatDropsAnswer,
  DiscoverChatsAnswer,
  DropListAnswer,
  DropNotificationsAnswer,
  DropPublishedFrame,
  FollowAnswer,
  LikeAnswer,
  WireDrop,
} from '@confab/client/protocol';
import { dropLimits } from '@confab/client/protocol';
import { stripUnsafeCharacters } from '@confab/client/rules';
import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { userChannel, type UserFrameEvent } from '../realtime/channels';
import { isUniqueViolation } from '../store/database';
import { formatTimestamp, newRecordId } from '../store/ids';
import type { DropWithChat, ScoreInput } from '../store/repositories/drops';
import type { UserRow } from '../store/repositories/users';
import type { AccountsService } from './accounts';
import type { RequestAuth, ServiceContext } from './context';
import { excerptOf, featuredImageOf, isReservedSlug, readingTimeOf, slugBase, tagsOf } from './dropText';
import { trending, trendingScore } from './trending';
import { readString, type Body } from './input';

export type FeedKind = 'feed' | 'trending' | 'discover' | 'bookmarks';

const snapshotLifetimeMs = 60 * 60 * 1000;
const discoverPerChatPerPage = 2;
const refreshIntervalMs = 5 * 60 * 1000;
/**
 * Drops rescored per transaction by the periodic refresh; between two, other requests run (on
 * SQLite a transaction holds the one connection and the event loop, so this bounds the stall).
 */
const refreshChunkSize = 500;

const notFoundDrop = () => new ConfabServerError('notFound', 'Drop not found');
const notFoundChat = () => new ConfabServerError('notFound', 'Chat not found');

function chatAvatar(name: string): string {
  return (name.trim()[0] ?? '?').toUpperCase();
}

function parseTags(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((tag): tag is string => typeof tag === 'string') : [];
  } catch {
    return [];
  }
}

/** `page` and `per_page` as numbers in range (bad input falls back, never a 500). */
export function pageOf(query: Record<string, unknown>): { page: number; perPage: number; snapshot: string } {
  const number = (value: unknown) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : undefined);
  const page = Math.max(1, number(query['page']) ?? 1);
  const perPage = Math.min(dropLimits.maxPerPage, Math.max(1, number(query['per_page']) ?? dropLimits.defaultPerPage));
  const snapshot = typeof query['snapshot'] === 'string' ? query['snapshot'].slice(0, 64) : '';
  return { page, perPage, snapshot };
}

/**
 * Drops (docs/CONTRACTS.md, Drops): publishing from a chat, reading, likes, bookmarks, unique
 * views, follows, the feeds over snapshots, discover and notifications. Drops are published: every
 * signed-in user reads them; participants publish; the author or a chat admin deletes.
 */
export class DropsService {
  private readonly refreshTimer: NodeJS.Timeout;
  private refreshing = false;
  private closed = false;

  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
  ) {
    this.refreshTimer = setInterval(() => void this.refreshTrending(), refreshIntervalMs);
    this.refreshTimer.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.refreshTimer);
  }

  private nowDate(): Date {
    return this.context.config.now();
  }

  private now(): string {
    return formatTimestamp(this.nowDate());
  }

  private get store() {
    return this.context.store;
  }

  /** Drops as the caller sees them (their own like and bookmark flags, whether they may delete). */
  async views(user: UserRow, rows: readonly DropWithChat[]): Promise<WireDrop[]> {
    const [flags, adminOf] = await Promise.all([
      this.store.drops.flagsOf(user.id, rows.map((row) => row.id)),
      this.store.chats.adminChatIds(user.id, [...new Set(rows.map((row) => row.chat))]),
    ]);
    return rows.map((row) =>
      dropView(row, { liked: flags.liked.has(row.id), bookmarked: flags.bookmarked.has(row.id), canDelete: row.author === user.id || adminOf.has(row.chat) }),
    );
  }


  private async view(user: UserRow, row: DropWithChat): Promise<WireDrop> {
    const [drop] = await this.views(user, [row]);
    if (drop === undefined) throw notFoundDrop();
    return drop;
  }

  // ---- publishing ----

  async create(auth: RequestAuth, body: Body): Promise<WireDrop> {
    const user = this.accounts.requireUser(auth);
    const chatId = readString(body, 'chat_id') ?? '';
    const chat = chatId === '' ? undefined : await this.store.chats.findById(chatId);
    if (chat === undefined || !(await this.store.chats.isParticipant(chat.id, user.id))) throw notFoundChat();
    const errors: FieldErrors = {};
    const title = stripUnsafeCharacters(readString(body, 'title') ?? '').trim();
    const content = (readString(body, 'content') ?? '').replace(/\u0000/g, '').trim();
    if (title === '') errors['title'] = fieldErrors.required();
    else if (title.length > dropLimits.titleMaxLength) errors['title'] = fieldErrors.maxText(dropLimits.titleMaxLength);
    if (content === '') errors['content'] = fieldErrors.required();
    else if (content.length > dropLimits.contentMaxLength) errors['content'] = fieldErrors.maxText(dropLimits.contentMaxLength);
    if (Object.keys(errors).length > 0) throw validationError('Failed to create drop.', errors);
    const now = this.now();
    const id = newRecordId();
    for (let attempt = 0; ; attempt += 1) {
      const slug = await this.freeSlug(title, attempt);
      try {
        await this.store.drops.insert({
          id,
          slug,
          chat: chat.id,
          author: user.id,
          title,
          excerpt: excerptOf(content),
          content,
          featured_image: featuredImageOf(content),
          tags: JSON.stringify(tagsOf(content)),
          view_count: 0,
          like_count: 0,
          reading_time: readingTimeOf(content),
          trending_score: 0,
          published_at: now,
          created: now,
          updated: now,
        });
        break;
      } catch (error) {
        // Two drops of one title at once: the unique index decides, the loser takes the next suffix.
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
    await this.store.drops.follow(chat.id, [user.id], now);
    const row = await this.store.drops.find(id);
    if (row === undefined) throw notFoundDrop();
    await this.announce(row);
    return this.view(user, row);
  }

  /** The title's slug, else with `-2`, `-3` …; a random tail when the title leaves nothing usable. */
  private async freeSlug(title: string, attempt: number): Promise<string> {
    let base = slugBase(title);
    if (isReservedSlug(base)) base = `${base === '' ? 'drop' : base}-${randomBytes(3).toString('hex')}`;
    for (let suffix = 1 + attempt; ; suffix += 1) {
      const candidate = suffix === 1 ? base : `${base}-${suffix}`;
      if (!(await this.store.drops.slugTaken(candidate))) return candidate;
    }
  }

  /**
   * Followers' open apps learn of the new drop, each with its own flags: none liked or bookmarked
   * yet (it was just published), so a follower's frame differs only in whether they may delete it,
   * and the two frames are made once for all of them.
   */
  private async announce(row: DropWithChat): Promise<void> {
    const [followers, admins] = await Promise.all([this.store.drops.followers(row.chat), this.store.chats.adminsOf(row.chat)]);
    const frameOf = (canDelete: boolean): UserFrameEvent => {
      const frame: DropPublishedFrame = { type: 'drop_published', drop: dropView(row, { liked: false, bookmarked: false, canDelete }) };
      return { kind: 'frame', frame: JSON.stringify(frame) };
    };
    const [deletable, readOnly] = [frameOf(true), frameOf(false)];
    const sends = followers.map((followerId) =>
      this.context.bus.publish(userChannel(followerId), row.author === followerId || admins.has(followerId) ? deletable : readOnly),
    );
    for (const result of await Promise.allSettled(sends)) {
      if (result.status === 'rejected') this.context.logger.error({ error: String(result.reason) }, 'drop announcement failed');
    }
  }

  // ---- reading ----

  async get(auth: RequestAuth, idOrSlug: string): Promise<WireDrop> {
    const user = this.accounts.requireUser(auth);
    const row = await this.store.drops.find(idOrSlug);
    if (row === undefined) throw notFoundDrop();
    await this.store.drops.recordView(row.id, user.id, this.now().slice(0, 10), this.scoreAt(this.nowDate().getTime()));
    const fresh = await this.store.drops.find(row.id);
    return this.view(user, fresh ?? row);
  }

  async remove(auth: RequestAuth, id: string): Promise<void> {
    const user = this.accounts.requireUser(auth);
    const row = await this.store.drops.find(id);
    if (row === undefined) throw notFoundDrop();
    if (row.author !== user.id && !(await this.store.chats.isAdmin(row.chat, user.id))) throw notFoundDrop();
    await this.store.drops.delete(row.id);
  }

  async toggleLike(auth: RequestAuth, id: string): Promise<LikeAnswer> {
    const user = this.accounts.requireUser(auth);
    const dropId = await this.store.drops.idOf(id);
    if (dropId === undefined) throw notFoundDrop();
    const result = await this.store.drops.toggleLike(dropId, user.id, this.now(), this.scoreAt(this.nowDate().getTime()));
    return { liked: result.liked, like_count: result.likeCount };
  }

  async toggleBookmark(auth: RequestAuth, id: string): Promise<BookmarkAnswer> {
    const user = this.accounts.requireUser(auth);
    const row = await this.store.drops.find(id);
    if (row === undefined) throw notFoundDrop();
    return { bookmarked: await this.store.drops.toggleBookmark(row.id, user.id, this.now()) };
  }

  // ---- trending ----

  /** Scores as of `nowMs`, for the store to apply in the transaction that changes the counts. */
  private scoreAt(nowMs: number): (drop: ScoreInput) => number {
    return (drop) => {
      const score = trendingScore(Number(drop.like_count), Number(drop.view_count), Date.parse(drop.published_at), nowMs);
      return Number.isFinite(score) ? score : 0;
    };
  }

  /**
   * Ages every recent drop's score (scores only change on likes and views otherwise), a chunk
   * per transaction, yielding to the event loop between chunks; one refresh at a time, and none
   * after close.
   */
  async refreshTrending(): Promise<void> {
    if (this.refreshing || this.closed) return;
    this.refreshing = true;
    try {
      const nowMs = this.nowDate().getTime();
      const since = formatTimestamp(new Date(nowMs - trending.windowDays * 24 * 3_600_000));
      const scoreOf = this.scoreAt(nowMs);
      let cursor = await this.store.drops.rescoreRecent(since, undefined, refreshChunkSize, scoreOf);
      while (cursor !== undefined && !this.closed) {
        await new Promise((resolve) => setImmediate(resolve));
        cursor = await this.store.drops.rescoreRecent(since, cursor, refreshChunkSize, scoreOf);
      }
      if (!this.closed) await this.store.drops.deleteSnapshotsBefore(formatTimestamp(new Date(nowMs)));
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'trending refresh failed');
    } finally {
      this.refreshing = false;
    }
  }

  // ---- feeds ----

  /** A page of a feed, cut from the snapshot page 1 took (see docs/CONTRACTS.md "Drops"). */
  async feed(auth: RequestAuth, kind: FeedKind, query: Record<string, unknown>): Promise<DropListAnswer> {
    const user = this.accounts.requireUser(auth);
    const { page, perPage, snapshot: snapshotId } = pageOf(query);
    const now = this.now();
    let snapshot = page > 1 && snapshotId !== '' ? await this.store.drops.findSnapshot(snapshotId, user.id, kind, now) : undefined;
    if (snapshot === undefined) {
      const { pages, total } = await this.candidates(user, kind, perPage);
      snapshot = {
        id: randomBytes(12).toString('base64url'),
        user_id: user.id,
        kind,
        drop_ids: JSON.stringify(pages),
        per_page: perPage,
        total_count: total,
        expires: formatTimestamp(new Date(this.nowDate().getTime() + snapshotLifetimeMs)),
      };
      await this.store.drops.saveSnapshot(snapshot);
    }
    // The snapshot holds its pages as cut on page 1 (discover's may be shorter than per_page).
    const pages = JSON.parse(snapshot.drop_ids) as string[][];
    const rows = await this.store.drops.findMany(pages[page - 1] ?? []);
    const views = await this.views(user, rows);
    // A bookmark taken back since page 1 leaves the list, as a deleted drop does.
    const drops = kind === 'bookmarks' ? views.filter((drop) => drop.is_bookmarked) : views;
    return { drops, has_more: page < pages.length, total_count: Number(snapshot.total_count), snapshot: snapshot.id };
  }

  /** The feed's drops as pages of `perPage` (at most 1,000 drops), and how many the feed holds in all. */
  private async candidates(user: UserRow, kind: FeedKind, perPage: number): Promise<{ pages: string[][]; total: number }> {
    const paged = ({ ids, total }: { ids: string[]; total: number }) => ({ pages: chunk(ids, perPage), total });
    switch (kind) {
      case 'feed':
        return paged(await this.store.drops.followingIds(user.id, this.now()));
      case 'trending':
        return paged(await this.store.drops.trendingIds(formatTimestamp(new Date(this.nowDate().getTime() - trending.windowDays * 24 * 3_600_000))));
      case 'bookmarks':
        return paged(await this.store.drops.bookmarkIds(user.id));
      case 'discover': {
        const pages = discoverPages(await this.store.drops.discoverCandidates(user.id), perPage);
        return { pages, total: pages.reduce((sum, page) => sum + page.length, 0) };
      }
    }
  }

  async chatDrops(auth: RequestAuth, chatId: string): Promise<ChatDropsAnswer> {
    const user = this.accounts.requireUser(auth);
    const chat = await this.store.chats.findById(chatId);
    if (chat === undefined) throw notFoundChat();
    const isParticipant = await this.store.chats.isParticipant(chat.id, user.id);
    const dropCount = await this.store.drops.countOfChat(chat.id);
    if (!isParticipant && dropCount === 0) throw notFoundChat();
    const rows = await this.store.drops.ofChat(chat.id, 100);
    return {
      chat: {
        id: chat.id,
        name: chat.name,
        description: chat.description,
        avatar: chatAvatar(chat.name),
        is_following: await this.store.drops.isFollowing(chat.id, user.id),
        follower_count: await this.store.drops.followerCount(chat.id),
        drop_count: dropCount,
        is_participant: isParticipant,
      },
      drops: await this.views(user, rows),
    };
  }

  // ---- follows, discover, notifications ----

  async follow(auth: RequestAuth, chatId: string, following: boolean): Promise<FollowAnswer> {
    const user = this.accounts.requireUser(auth);
    const chat = await this.store.chats.findById(chatId);
    if (chat === undefined) throw notFoundChat();
    if (following) {
      const visible = (await this.store.chats.isParticipant(chat.id, user.id)) || (await this.store.drops.countOfChat(chat.id)) > 0;
      if (!visible) throw notFoundChat();
      await this.store.drops.follow(chat.id, [user.id], this.now());
    } else {
      await this.store.drops.unfollow(chat.id, user.id);
    }
    return { chat_id: chat.id, following, follower_count: await this.store.drops.followerCount(chat.id) };
  }

  /** Called when people join a chat (creating it included): they follow its drops. */
  async followOnJoin(chatId: string, userIds: readonly string[]): Promise<void> {
    await this.store.drops.follow(chatId, userIds, this.now());
  }

  async discoverChats(auth: RequestAuth): Promise<DiscoverChatsAnswer> {
    const user = this.accounts.requireUser(auth);
    const rows = await this.store.drops.discoverChats(user.id, 20);
    const followerCounts = await this.store.drops.followerCounts(rows.map((row) => row.id));
    const chats = rows.map((row) => ({
      id: row.id,
      name: row.name,
      avatar: chatAvatar(row.name),
      drop_count: Number(row.drop_count),
      follower_count: followerCounts.get(row.id) ?? 0,
      last_drop_at: String(row.last_drop_at),
    }));
    return { chats };
  }

  async notifications(auth: RequestAuth): Promise<DropNotificationsAnswer> {
    const user = this.accounts.requireUser(auth);
    const lastRead = (await this.store.drops.lastRead(user.id)) ?? user.created;
    const { ids, count } = await this.store.drops.notificationIds(user.id, lastRead, 20);
    return { count, drops: await this.views(user, await this.store.drops.findMany(ids)), last_read_at: lastRead };
  }

  async markNotificationsRead(auth: RequestAuth): Promise<void> {
    const user = this.accounts.requireUser(auth);
    await this.store.drops.markRead(user.id, this.now());
  }
}

/** A drop on the wire, with what only its reader can know: their like and bookmark, and whether they may delete it. */
function dropView(row: DropWithChat, reader: { liked: boolean; bookmarked: boolean; canDelete: boolean }): WireDrop {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    content: row.content,
    featured_image: row.featured_image,
    tags: parseTags(row.tags),
    chat_id: row.chat,
    chat_name: row.chat_name,
    chat_avatar: chatAvatar(row.chat_name),
    author_id: row.author ?? '',
    author_name: row.author_name === null || row.author_name === '' ? (row.author_username ?? '') : row.author_name,
    published_at: row.published_at,
    view_count: Number(row.view_count),
    like_count: Number(row.like_count),
    reading_time: Number(row.reading_time),
    is_liked: reader.liked,
    is_bookmarked: reader.bookmarked,
    can_delete: reader.canDelete,
  };
}

function chunk(ids: readonly string[], size: number): string[][] {
  const pages: string[][] = [];
  for (let start = 0; start < ids.length; start += size) pages.push(ids.slice(start, start + size));
  return pages;
}

/**
 * Discover's pages: most liked first, at most 2 drops of one chat on a page; what does not fit a
 * page moves to the next ones in its order. A page may be short when only a few chats are left.
 */
export function discoverPages(candidates: readonly { id: string; chat: string }[], perPage: number): string[][] {
  const pages: string[][] = [];
  let pending = [...candidates];
  while (pending.length > 0) {
    const perChat = new Map<string, number>();
    const page: string[] = [];
    const rest: { id: string; chat: string }[] = [];
    for (const candidate of pending) {
      const used = perChat.get(candidate.chat) ?? 0;
      if (page.length < perPage && used < discoverPerChatPerPage) {
        page.push(candidate.id);
        perChat.set(candidate.chat, used + 1);
      } else {
        rest.push(candidate);
      }
    }
    pages.push(page);
    pending = rest;
  }
  return pages;
}
