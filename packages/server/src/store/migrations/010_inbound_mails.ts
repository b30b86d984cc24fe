import type { Kysely, Migration } from 'kysely';

/**
 * `inbound_mails`: what @email needs to answer a received mail in its thread, one row
 * per `email` message: the sender's address, the subject and the mail's Message-ID, encrypted like
 * message content. Goes with its message or chat.
 */
export const inboundMailsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('inbound_mails')
      .addColumn('message', 'text', (column) => column.primaryKey().references('messages.id').onDelete('cascade'))
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('details_encrypted', 'text', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('inbound_mails_chat_index').on('inbound_mails').columns(['chat', 'created']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('inbound_mails').execute();
  },
};
