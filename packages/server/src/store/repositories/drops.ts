import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { compiledOnce } from '../compiledOnce';
import { formatTimestamp } from '../ids';
import type { Database, DropsTable, FeedSnapshotsTable } from '../schema';

export type DropRow = Selectable<DropsTable>;
export type FeedSnapshotRow = Selectable<FeedSnapshotsTable>;

/** A drop with its chat's name and its author's name, as lists and views need them. */
export interface DropWithChat extends DropRow {
  chat_name: string;
  author_name: string | null;
  author_username: string | null;
}

/** Candidates a snapshot is cut from: at most this many drops per feed. */
export const snapshotLimit = 1000;

const dayMs = 24 * 3_600_000;
/** The widest window the following feed narrows its read to; beyond it, it reads them all. */
const maxWindowDays = 4096;

/** What a drop's trending score is computed from. */
export interface ScoreInput {
  like_count: number;
  view_count: number;
  published_at: string;
}

/** The trending score of a drop with these counts and age (the service's formula). */
export type ScoreOf = (drop: ScoreInput) => number;

/** Where a walk over drops by (published_at, id), newest first, stopped. */
export interface DropCursor {
  published_at: string;
  id: string;
}

/**
 * Drops, their likes, bookmarks and unique views, chat follows and feed snapshots. Counters are
 * changed with `x = x + 1` in the same transaction as the row that justifies them, so they stay
 * exact under concurrency on both databases.
 */
export class DropsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // A like toggle's statements (compiledOnce): people toggle likes faster than anything else here.
  private readonly byIdOrSlug = compiledOnce((idOrSlug: string) =>
    this.db.selectFrom('drops').select('id').where((builder) => builder.or([builder('id', '=', idOrSlug), builder('slug', '=', idOrSlug)])),
  );
  private readonly like = compiledOnce((dropId: string, userId: string, created: string) =>
    this.db.insertInto('drop_likes').values({ drop_id: dropId, user_id: userId, created }).onConflict((conflict) => conflict.columns(['drop_id', 'user_id']).doNothing()),
  );
  private readonly unlike = compiledOnce((dropId: string, userId: string) =>
    this.db.deleteFrom('drop_likes').where('drop_id', '=', dropId).where('user_id', '=', userId),
  );
  private readonly likeCountBy = {
    '+': compiledOnce((dropId: string) =>
      this.db.updateTable('drops').set((eb) => ({ like_count: eb('like_count', '+', 1) })).where('id', '=', dropId).returning(['like_count', 'view_count', 'published_at']),
    ),
    '-': compiledOnce((dropId: string) =>
      this.db.updateTable('drops').set((eb) => ({ like_count: eb('like_count', '-', 1) })).where('id', '=', dropId).returning(['like_count', 'view_count', 'published_at']),
    ),
  };
  private readonly countsOf = compiledOnce((dropId: string) => this.db.selectFrom('drops').select(['like_count', 'view_count', 'published_at']).where('id', '=', dropId));
  private readonly setScore = compiledOnce((dropId: string, score: number) => this.db.updateTable('drops').set({ trending_score: score }).where('id', '=', dropId));

  private withChat() {
    return this.db
      .selectFrom('drops')
      .innerJoin('chats', 'chats.id', 'drops.chat')
      .leftJoin('users', 'users.id', 'drops.author')
      .selectAll('drops')
      .select(['chats.name as chat_name', 'users.name as author_name', 'users.username as author_username']);
  }

  async insert(row: Insertable<DropsTable>): Promise<void> {
    await this.db.insertInto('drops').values(row).execute();
  }

  /** The id of the drop with this id or slug (no joins: enough to know it exists). */
  async idOf(idOrSlug: string): Promise<string | undefined> {
    return (await this.byIdOrSlug.execute(this.db, idOrSlug)).rows[0]?.id;
  }

  async slugTaken(slug: string): Promise<boolean> {
    return (await this.db.selectFrom('drops').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
  }

  async find(idOrSlug: string): Promise<DropWithChat | undefined> {
    return this.withChat()
      .where((builder) => builder.or([builder('drops.id', '=', idOrSlug), builder('drops.slug', '=', idOrSlug)]))
      .executeTakeFirst();
  }

  /** The drops with these ids, in the order given (missing ones, e.g. deleted, left out). */
  async findMany(ids: readonly string[]): Promise<DropWithChat[]> {
    if (ids.length === 0) return [];
    const rows = await this.withChat().where('drops.id', 'in', [...ids]).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)).filter((row): row is DropWithChat => row !== undefined);
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('drops').where('id', '=', id).execute();
  }

  async ofChat(chatId: string, limit: number): Promise<DropWithChat[]> {
    return this.withChat().where('drops.chat', '=', chatId).orderBy('drops.published_at', 'desc').orderBy('drops.id', 'desc').limit(limit).execute();
  }

  async countOfChat(chatId: string): Promise<number> {
    const row = await this.db.selectFrom('drops').select(sql<number | string>`count(*)`.as('count')).where('chat', '=', chatId).executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  // ---- the caller's flags ----

  async flagsOf(userId: string, dropIds: readonly string[]): Promise<{ liked: Set<string>; bookmarked: Set<string> }> {
    if (dropIds.length === 0) return { liked: new Set(), bookmarked: new Set() };
    const ids = [...dropIds];
    const [likes, bookmarks] = await Promise.all([
      this.db.selectFrom('drop_likes').select('drop_id').where('user_id', '=', userId).where('drop_id', 'in', ids).execute(),
      this.db.selectFrom('drop_bookmarks').select('drop_id').where('user_id', '=', userId).where('drop_id', 'in', ids).execute(),
    ]);
    return { liked: new Set(likes.map((row) => row.drop_id)), bookmarked: new Set(bookmarks.map((row) => row.drop_id)) };
  }

  // ---- likes, bookmarks, views ----

  /**
   * Toggles the user's like: an insert that finds the like already there deletes it instead.
   * The count and the trending score move in the same transaction as the row (the update locks
   * the drop until commit), so both stay exact under concurrency.
   */
  async toggleLike(dropId: string, userId: string, now: string, scoreOf: ScoreOf): Promise<{ liked: boolean; likeCount: number }> {
    return this.db.transaction().execute(async (transaction) => {
      const inserted = await this.like.execute(transaction, dropId, userId, now);
      let liked = Number(inserted.numAffectedRows ?? 0n) === 1;
      let change: '+' | '-' | undefined = liked ? '+' : undefined;
      if (!liked) {
        const removed = await this.unlike.execute(transaction, dropId, userId);
        if (Number(removed.numAffectedRows ?? 0n) !== 1) liked = true;
        else change = '-';
      }
      const [counts] = (await (change === undefined ? this.countsOf : this.likeCountBy[change]).execute(transaction, dropId)).rows;
      if (counts === undefined) throw new Error('no drop to count the like in');
      await this.setScore.execute(transaction, dropId, scoreOf(counts));
      return { liked, likeCount: Number(counts.like_count) };
    });
  }

  async toggleBookmark(dropId: string, userId: string, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (transaction) => {
      const inserted = await transaction
        .insertInto('drop_bookmarks')
        .values({ drop_id: dropId, user_id: userId, created: now })
        .onConflict((conflict) => conflict.columns(['drop_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return true;
      const removed = await transaction.deleteFrom('drop_bookmarks').where('drop_id', '=', dropId).where('user_id', '=', userId).executeTakeFirst();
      return Number(removed.numDeletedRows) !== 1;
    });
  }

  /** Counts a view once per user per day, rescoring the drop with it; true when this one counted. */
  async recordView(dropId: string, userId: string, day: string, scoreOf: ScoreOf): Promise<boolean> {
    return this.db.transaction().execute(async (transaction) => {
      const inserted = await transaction
        .insertInto('drop_views')
        .values({ drop_id: dropId, user_id: userId, day })
        .onConflict((conflict) => conflict.columns(['drop_id', 'user_id', 'day']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      const counts = await transaction
        .updateTable('drops')
        .set((eb) => ({ view_count: eb('view_count', '+', 1) }))
        .where('id', '=', dropId)
        .returning(['like_count', 'view_count', 'published_at'])
        .executeTakeFirstOrThrow();
      await transaction.updateTable('drops').set({ trending_score: scoreOf(counts) }).where('id', '=', dropId).execute();
      return true;
    });
  }

  /**
   * Rescores the next `limit` drops published since `since`, newest first, after `after`, in one
   * transaction and one UPDATE; answers where it stopped, or undefined when no drops are left. A
   * drop whose counts changed meanwhile is left alone: the like or view that changed them
   * rescored it. (VALUES columns are column1… on both databases; the id list keeps SQLite on the
   * primary key.)
   */
  async rescoreRecent(since: string, after: DropCursor | undefined, limit: number, scoreOf: ScoreOf): Promise<DropCursor | undefined> {
    return this.db.transaction().execute(async (transaction) => {
      const rows = await transaction
        .selectFrom('drops')
        .select(['id', 'like_count', 'view_count', 'published_at'])
        .where('published_at', '>=', since)
        .$if(after !== undefined, (query) =>
          query.where((eb) => eb(eb.refTuple('published_at', 'id'), '<', eb.tuple(after?.published_at ?? '', after?.id ?? ''))),
        )
        .orderBy('published_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      if (rows.length > 0) {
        const scored = rows.map((row) => sql`(${row.id}, cast(${row.like_count} as integer), cast(${row.view_count} as integer), cast(${scoreOf(row)} as real))`);
        await sql`update drops set trending_score = scored.column4 from (values ${sql.join(scored)}) as scored
          where drops.id in (${sql.join(rows.map((row) => row.id))})
            and drops.id = scored.column1 and drops.like_count = scored.column2 and drops.view_count = scored.column3`.execute(transaction);
      }
      const last = rows.at(-1);
      return rows.length < limit || last === undefined ? undefined : { published_at: last.published_at, id: last.id };
    });
  }

  // ---- follows ----

  async follow(chatId: string, userIds: readonly string[], now: string): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insertInto('chat_follows')
      .values(userIds.map((userId) => ({ chat_id: chatId, user_id: userId, created: now })))
      .onConflict((conflict) => conflict.columns(['chat_id', 'user_id']).doNothing())
      .execute();
  }

  async unfollow(chatId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('chat_follows').where('chat_id', '=', chatId).where('user_id', '=', userId).execute();
  }

  async isFollowing(chatId: string, userId: string): Promise<boolean> {
    return (await this.db.selectFrom('chat_follows').select('chat_id').where('chat_id', '=', chatId).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
  }

  async followerCount(chatId: string): Promise<number> {
    const row = await this.db.selectFrom('chat_follows').select(sql<number | string>`count(*)`.as('count')).where('chat_id', '=', chatId).executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Follower counts of several chats in one query (0 for a chat nobody follows). */
  async followerCounts(chatIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(chatIds.map((id) => [id, 0]));
    if (chatIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('chat_follows')
      .select(['chat_id', sql<number | string>`count(*)`.as('count')])
      .where('chat_id', 'in', [...chatIds])
      .groupBy('chat_id')
      .execute();
    for (const row of rows) counts.set(row.chat_id, Number(row.count));
    return counts;
  }

  async followers(chatId: string): Promise<string[]> {
    return (await this.db.selectFrom('chat_follows').select('user_id').where('chat_id', '=', chatId).execute()).map((row) => row.user_id);
  }

  // ---- feed candidates (ids in feed order, at most snapshotLimit) ----

  /**
   * Drops of the chats the user follows, newest first, and how many there are. With more than a
   * snapshot's worth, the ordered read is cut to a recent window that holds at least
   * `snapshotLimit` of them, so it sorts about a snapshot's worth instead of every followed drop.
   * The window starts at a day before `now` and grows by what the drops counted so far predict
   * (index-only counts), at least 1.5× and at most 16× a step.
   */
  async followingIds(userId: string, now: string): Promise<{ ids: string[]; total: number }> {
    const followed = this.db.selectFrom('drops').innerJoin('chat_follows', (join) => join.onRef('chat_follows.chat_id', '=', 'drops.chat').on('chat_follows.user_id', '=', userId));
    const countSince = async (since: string | undefined) => {
      const row = await followed
        .select(sql<number | string>`count(*)`.as('count'))
        .$if(since !== undefined, (query) => query.where('drops.published_at', '>=', since ?? ''))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    };
    const total = await countSince(undefined);
    let since: string | undefined;
    const nowMs = Date.parse(now);
    if (total > snapshotLimit && Number.isFinite(nowMs)) {
      for (let days = 1; days <= maxWindowDays; ) {
        const candidate = formatTimestamp(new Date(nowMs - days * dayMs));
        const count = await countSince(candidate);
        if (count >= snapshotLimit) {
          since = candidate;
          break;
        }
        days *= Math.min(16, Math.max(1.5, (snapshotLimit * 1.1) / Math.max(count, 1)));
      }
    }
    const rows = await followed
      .select('drops.id')
      .$if(since !== undefined, (query) => query.where('drops.published_at', '>=', since ?? ''))
      .orderBy('drops.published_at', 'desc')
      .orderBy('drops.id', 'desc')
      .limit(snapshotLimit)
      .execute();
    return { ids: rows.map((row) => row.id), total };
  }

  async trendingIds(since: string): Promise<{ ids: string[]; total: number }> {
    const rows = await this.db
      .selectFrom('drops')
      .select('id')
      .where('published_at', '>=', since)
      .orderBy('trending_score', 'desc')
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(snapshotLimit)
      .execute();
    return { ids: rows.map((row) => row.id), total: rows.length };
  }

  /**
   * Drops of chats the user neither follows nor belongs to, most liked first: a walk down the
   * likes index, each drop's chat checked against the user's chats, listed once per query.
   */
  async discoverCandidates(userId: string): Promise<{ id: string; chat: string }[]> {
    return this.db
      .selectFrom('drops')
      .select(['drops.id', 'drops.chat'])
      .where('drops.chat', 'not in', (eb) => eb.selectFrom('chat_follows').select('chat_follows.chat_id').where('chat_follows.user_id', '=', userId))
      .where('drops.chat', 'not in', (eb) => eb.selectFrom('chat_participants').select('chat_participants.chat_id').where('chat_participants.user_id', '=', userId))
      .orderBy('drops.like_count', 'desc')
      .orderBy('drops.published_at', 'desc')
      .orderBy('drops.id', 'desc')
      .limit(snapshotLimit)
      .execute();
  }

  async bookmarkIds(userId: string): Promise<{ ids: string[]; total: number }> {
    const rows = await this.db
      .selectFrom('drop_bookmarks')
      .select('drop_id')
      .where('user_id', '=', userId)
      .orderBy('created', 'desc')
      .orderBy('drop_id', 'desc')
      .limit(snapshotLimit)
      .execute();
    return { ids: rows.map((row) => row.drop_id), total: rows.length };
  }

  /**
   * Chats with drops the user neither follows nor belongs to, most drops recently first. Drops
   * are grouped per chat first (an index-only walk), so the follow and membership checks run
   * once per chat, not once per drop.
   */
  async discoverChats(userId: string, limit: number) {
    const perChat = this.db
      .selectFrom('drops')
      .select(['drops.chat as chat', sql<number | string>`count(*)`.as('drop_count'), sql<string>`max(drops.published_at)`.as('last_drop_at')])
      .groupBy('drops.chat')
      .as('per_chat');
    return this.db
      .selectFrom(perChat)
      .innerJoin('chats', 'chats.id', 'per_chat.chat')
      .select(['chats.id as id', 'chats.name as name', 'per_chat.drop_count', 'per_chat.last_drop_at'])
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('chat_follows').select('chat_follows.chat_id').whereRef('chat_follows.chat_id', '=', 'per_chat.chat').where('chat_follows.user_id', '=', userId))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('chat_participants').select('chat_participants.chat_id').whereRef('chat_participants.chat_id', '=', 'per_chat.chat').where('chat_participants.user_id', '=', userId))),
      )
      .orderBy('per_chat.last_drop_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Drops of followed chats, by others, published after `since`: newest first. */
  async notificationIds(userId: string, since: string, limit: number): Promise<{ ids: string[]; count: number }> {
    const base = this.db
      .selectFrom('drops')
      .innerJoin('chat_follows', (join) => join.onRef('chat_follows.chat_id', '=', 'drops.chat').on('chat_follows.user_id', '=', userId))
      .where('drops.published_at', '>', since)
      .where((builder) => builder.or([builder('drops.author', 'is', null), builder('drops.author', '<>', userId)]));
    const [rows, count] = await Promise.all([
      base.select('drops.id').orderBy('drops.published_at', 'desc').limit(limit).execute(),
      base.select(sql<number | string>`count(*)`.as('count')).executeTakeFirst(),
    ]);
    return { ids: rows.map((row) => row.id), count: Number(count?.count ?? 0) };
  }

  async lastRead(userId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('drop_notification_reads').select('last_read').where('user_id', '=', userId).executeTakeFirst())?.last_read;
  }

  async markRead(userId: string, now: string): Promise<void> {
    await this.db
      .insertInto('drop_notification_reads')
      .values({ user_id: userId, last_read: now })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ last_read: now }))
      .execute();
  }

  // ---- snapshots ----

  async saveSnapshot(row: FeedSnapshotRow): Promise<void> {
    await this.db.insertInto('feed_snapshots').values(row).execute();
  }

  async findSnapshot(id: string, userId: string, kind: string, now: string): Promise<FeedSnapshotRow | undefined> {
    return this.db.selectFrom('feed_snapshots').selectAll().where('id', '=', id).where('user_id', '=', userId).where('kind', '=', kind).where('expires', '>', now).executeTakeFirst();
  }

  async deleteSnapshotsBefore(now: string): Promise<void> {
    await this.db.deleteFrom('feed_snapshots').where('expires', '<=', now).execute();
  }
}
