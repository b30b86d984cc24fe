import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Unread state (docs/CONTRACTS.md, Unread state).
 *
 * `chat_reads`: each person's read position in a chat (the highest seq they have read) and their
 * mute. A row is written when someone joins a chat, at the chat's newest seq, so joining never
 * shows the history as unread; with no row at all the position counts as the newest seq too.
 * Unread messages are `chats.last_seq - last_read_seq`: posting moves the author's position to
 * their message, so their own never count, and the count needs no scan of messages.
 *
 * `message_mentions`: which person a message mentions, by seq, written when the message is
 * stored (bodies are encrypted at rest, so they cannot be searched later). Counting a person's
 * unread mentions walks only their own rows. Mentions stored before this migration are not known;
 * every chat starts read, so none of them would count anyway.
 */
export const chatReadsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('chat_reads')
      .addColumn('chat_id', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('last_read_seq', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('muted', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('updated', 'text', (column) => column.notNull())
      .addPrimaryKeyConstraint('chat_reads_pkey', ['chat_id', 'user_id'])
      .execute();
    await db.schema.createIndex('chat_reads_user_index').on('chat_reads').columns(['user_id', 'chat_id']).execute();
    await db.schema
      .createTable('message_mentions')
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('chat_id', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint('message_mentions_pkey', ['user_id', 'chat_id', 'seq'])
      .execute();
    // Every present participant starts with everything read.
    await sql`insert into chat_reads (chat_id, user_id, last_read_seq, muted, updated)
      select chat_participants.chat_id, chat_participants.user_id, chats.last_seq, 0, chats.updated
      from chat_participants join chats on chats.id = chat_participants.chat_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('message_mentions').execute();
    await db.schema.dropTable('chat_reads').execute();
  },
};
