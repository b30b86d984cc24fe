import type { Kysely, Migration } from 'kysely';

/**
 * `email_drafts`: a mail @email has written and shown, waiting for the person who asked
 * for it to say `@email send`. Kept in the database, not in one instance's memory, so a draft
 * confirmed after a restart or on another instance is still there; `claimed_at` is set by the one
 * conditional update that takes it (send or cancel), so it is sent at most once. The mail itself
 * (recipient, subject, text, thread) is encrypted like message content. Goes with its chat or asker.
 */
export const emailDraftsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('email_drafts')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('asker', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('draft_encrypted', 'text', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'text', (column) => column.notNull())
      .addColumn('claimed_at', 'text')
      .execute();
    await db.schema.createIndex('email_drafts_chat_asker_index').on('email_drafts').columns(['chat', 'asker', 'created']).execute();
    await db.schema.createIndex('email_drafts_expires_index').on('email_drafts').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('email_drafts').execute();
  },
};
