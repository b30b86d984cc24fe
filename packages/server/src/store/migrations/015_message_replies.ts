import type { Kysely, Migration } from 'kysely';

/**
 * Replies (docs/CONTRACTS.md, Replies). `reply_to` names the first message of the reply's thread
 * (threads are one level deep), and stays when that message is deleted, so the reply can say
 * "original deleted". `reply_count` is kept on the original as replies are stored, so a page of
 * messages shows "N replies" without counting. A thread is loaded by (chat, reply_to). An agent's
 * streamed reply keeps its reply_to in `agent_streams` until the stream ends and is stored.
 */
export const messageRepliesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('reply_to', 'text').execute();
    await db.schema.alterTable('messages').addColumn('reply_count', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('messages_chat_reply_to_index').on('messages').columns(['chat', 'reply_to']).execute();
    await db.schema.alterTable('agent_streams').addColumn('reply_to', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('agent_streams').dropColumn('reply_to').execute();
    await db.schema.dropIndex('messages_chat_reply_to_index').execute();
    await db.schema.alterTable('messages').dropColumn('reply_count').execute();
    await db.schema.alterTable('messages').dropColumn('reply_to').execute();
  },
};
