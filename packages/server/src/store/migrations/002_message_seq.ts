import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Per-chat message sequence numbers. `chats.last_seq` is the counter a message insert bumps in
 * its own transaction: the row lock serialises concurrent inserts (also across instances on one
 * PostgreSQL) and a rolled-back insert rolls the counter back too, so the sequence has no gaps.
 * The unique (chat, seq) index is the safety net the insert retries on.
 */
export const messageSeqMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('seq', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('chats').addColumn('last_seq', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    // Existing history is numbered in its display order (created, id).
    await sql`update messages set seq = (
      select count(*) from messages as earlier
      where earlier.chat = messages.chat
        and (earlier.created < messages.created or (earlier.created = messages.created and earlier.id <= messages.id))
    )`.execute(db);
    await sql`update chats set last_seq = coalesce((select max(seq) from messages where messages.chat = chats.id), 0)`.execute(db);
    await db.schema.createIndex('messages_chat_seq_unique').on('messages').unique().columns(['chat', 'seq']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('messages_chat_seq_unique').execute();
    await db.schema.alterTable('messages').dropColumn('seq').execute();
    await db.schema.alterTable('chats').dropColumn('last_seq').execute();
  },
};
