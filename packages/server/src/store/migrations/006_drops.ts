import type { Kysely, Migration } from 'kysely';

/**
 * What the feeds need beyond migration 001's drops, likes, bookmarks and follows
 * (docs/CONTRACTS.md, Drops):
 * - `drops.trending_score`, stored and indexed so the trending page is an index walk;
 * - `drop_views`, one row per drop, user and UTC day, so a view counts once a day;
 * - `feed_snapshots`, the ordered drop ids a page 1 saw, so later pages never repeat or skip;
 * - `drop_notification_reads`, when each user last read their drop notifications.
 */
export const dropsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('drops').addColumn('trending_score', 'real', (column) => column.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('drops_trending_index').on('drops').columns(['trending_score', 'published_at']).execute();
    await db.schema.createIndex('drops_likes_index').on('drops').columns(['like_count', 'published_at']).execute();
    await db.schema
      .createTable('drop_views')
      .addColumn('drop_id', 'text', (column) => column.notNull().references('drops.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('day', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('drop_views_pkey', ['drop_id', 'user_id', 'day'])
      .execute();
    await db.schema
      .createTable('feed_snapshots')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('drop_ids', 'text', (column) => column.notNull())
      .addColumn('per_page', 'integer', (column) => column.notNull())
      .addColumn('total_count', 'integer', (column) => column.notNull())
      .addColumn('expires', 'text', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('drop_notification_reads')
      .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('last_read', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('drop_bookmarks_user_created_index').on('drop_bookmarks').columns(['user_id', 'created']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('drop_notification_reads').execute();
    await db.schema.dropTable('feed_snapshots').execute();
    await db.schema.dropTable('drop_views').execute();
    await db.schema.dropIndex('drop_bookmarks_user_created_index').execute();
    await db.schema.dropIndex('drops_likes_index').execute();
    await db.schema.dropIndex('drops_trending_index').execute();
    await db.schema.alterTable('drops').dropColumn('trending_score').execute();
  },
};
