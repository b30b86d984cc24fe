import type { Kysely, Migration } from 'kysely';

/**
 * Indexes that let each feed's candidates come from the index alone (`pnpm bench:drops`: page 1
 * at 100,000 drops within 2× of the same at 1,000). Each replaces a narrower index of the same
 * leading columns, so a like or a view still maintains the same number of indexes.
 * - following: (chat, published_at, id) — the followed chats' drops without reading the rows;
 * - trending: (trending_score, published_at, id) — the full order, no sort of equal scores;
 * - discover: (like_count, published_at, id, chat) — the order plus the chat the per-chat rule needs;
 * - `feed_snapshots.expires`, so the sweep of expired snapshots never reads their id lists.
 */
export const dropFeedIndexesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('drops_chat_feed_index').on('drops').columns(['chat', 'published_at', 'id']).execute();
    await db.schema.dropIndex('drops_chat_index').execute();
    await db.schema.createIndex('drops_trending_feed_index').on('drops').columns(['trending_score', 'published_at', 'id']).execute();
    await db.schema.dropIndex('drops_trending_index').execute();
    await db.schema.createIndex('drops_likes_feed_index').on('drops').columns(['like_count', 'published_at', 'id', 'chat']).execute();
    await db.schema.dropIndex('drops_likes_index').execute();
    await db.schema.createIndex('feed_snapshots_expires_index').on('feed_snapshots').column('expires').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('feed_snapshots_expires_index').execute();
    await db.schema.createIndex('drops_likes_index').on('drops').columns(['like_count', 'published_at']).execute();
    await db.schema.dropIndex('drops_likes_feed_index').execute();
    await db.schema.createIndex('drops_trending_index').on('drops').columns(['trending_score', 'published_at']).execute();
    await db.schema.dropIndex('drops_trending_feed_index').execute();
    await db.schema.createIndex('drops_chat_index').on('drops').columns(['chat', 'published_at']).execute();
    await db.schema.dropIndex('drops_chat_feed_index').execute();
  },
};
