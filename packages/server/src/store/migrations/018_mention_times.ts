import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `message_mentions.created`: when the mentioning message was stored, indexed, so the
 * missed-mention mail sweep reads only the mentions of its window (docs/CONTRACTS.md,
 * Notifications) instead of every mention ever made. Existing rows take their message's time.
 */
export const mentionTimesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('message_mentions').addColumn('created', 'text', (column) => column.notNull().defaultTo('')).execute();
    await sql`update message_mentions set created = coalesce((select messages.created from messages
      where messages.chat = message_mentions.chat_id and messages.seq = message_mentions.seq), '')`.execute(db);
    await db.schema.createIndex('message_mentions_created').on('message_mentions').column('created').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('message_mentions_created').execute();
    await db.schema.alterTable('message_mentions').dropColumn('created').execute();
  },
};
