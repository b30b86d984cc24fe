import type { Kysely, Migration } from 'kysely';

/**
 * Emoji reactions on messages (docs/CONTRACTS.md, Reactions). One row per (message, person,
 * emoji): adding twice changes nothing, so concurrent clicks converge instead of toggling each
 * other away. `chat` is kept on the row so a chat's deletion and a page's summaries need no join.
 * `messages.reactions_version` counts the changes of a message's reactions; every change bumps it
 * (and `updated`, which clients catch up by) under the message row's lock, so live summaries are
 * ordered and a late one is recognisably older.
 */
export const messageReactionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('message_reactions')
      .addColumn('message', 'text', (column) => column.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('user', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('emoji', 'text', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('message_reactions_pkey', ['message', 'user', 'emoji'])
      .execute();
    await db.schema.createIndex('message_reactions_chat_index').on('message_reactions').columns(['chat', 'message']).execute();
    await db.schema.alterTable('messages').addColumn('reactions_version', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').dropColumn('reactions_version').execute();
    await db.schema.dropTable('message_reactions').execute();
  },
};
