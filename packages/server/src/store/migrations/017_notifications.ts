import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Notifications (docs/CONTRACTS.md, Notifications).
 *
 * `chat_reads.notify_all`: the person chose 'all messages' for the chat (0: mentions and replies,
 * the default). `chat_reads.mailed_through_seq`: the highest mention seq a missed-mention mail has
 * covered; the sweep claims rows by moving it forward in one UPDATE … WHERE it is still lower, so
 * two instances never mail the same mention twice. Existing rows start at their read position:
 * mentions from before this migration are never mailed.
 *
 * `users.email_notifications`: the person's switch for those mails (on unless turned off; the
 * sweep itself skips agents and temporary accounts).
 */
export const notificationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('chat_reads').addColumn('notify_all', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('chat_reads').addColumn('mailed_through_seq', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await sql`update chat_reads set mailed_through_seq = last_read_seq`.execute(db);
    await db.schema.alterTable('users').addColumn('email_notifications', 'integer', (column) => column.notNull().defaultTo(1)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('email_notifications').execute();
    await db.schema.alterTable('chat_reads').dropColumn('mailed_through_seq').execute();
    await db.schema.alterTable('chat_reads').dropColumn('notify_all').execute();
  },
};
