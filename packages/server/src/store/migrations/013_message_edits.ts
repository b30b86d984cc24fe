import type { Kysely, Migration } from 'kysely';

/**
 * Edits and deletions of messages (docs/CONTRACTS.md, Edits and deletions). `edited_at` is set by
 * every edit. A deletion keeps the row, its content emptied and `deleted_at` set: the chat's seq
 * stays gapless (clients catch up by seq and treat a gap as missed messages), replies can still say
 * what they answered ("original deleted"), and a client that was away learns of it. Clients that
 * were away ask for what changed since (`updated > …`), hence the (chat, updated) index.
 */
export const messageEditsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('edited_at', 'text').execute();
    await db.schema.alterTable('messages').addColumn('deleted_at', 'text').execute();
    await db.schema.createIndex('messages_chat_updated_index').on('messages').columns(['chat', 'updated']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('messages_chat_updated_index').execute();
    await db.schema.alterTable('messages').dropColumn('deleted_at').execute();
    await db.schema.alterTable('messages').dropColumn('edited_at').execute();
  },
};
