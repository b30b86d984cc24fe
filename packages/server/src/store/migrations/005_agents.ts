import type { Kysely, Migration } from 'kysely';

/**
 * The agent runtime's tables (docs/CONTRACTS.md, Agents).
 * - `agent_mentions`: every mention or auto-route of an agent, by reference only (the message
 *   stays encrypted once, in `messages`). It is the offline queue (unacknowledged, unexpired
 *   rows are sent on connect) and the invocation grant (a row younger than 10 minutes lets the
 *   agent post in that chat), and it carries the hop count of agent-to-agent mentions.
 * - `agent_streams`: replies still growing, so any instance can send a joining client the text
 *   so far, and any instance can close a stream whose agent went quiet. Text encrypted like messages.
 */
export const agentsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('agent_mentions')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('agent', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('message', 'text', (column) => column.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('reason', 'text', (column) => column.notNull())
      .addColumn('hop', 'integer', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .addColumn('expires', 'text', (column) => column.notNull())
      .addColumn('acked_at', 'text')
      .execute();
    await db.schema.createIndex('agent_mentions_pending_index').on('agent_mentions').columns(['agent', 'acked_at', 'created']).execute();
    await db.schema.createIndex('agent_mentions_grant_index').on('agent_mentions').columns(['agent', 'chat', 'created']).execute();
    await db.schema
      .createTable('agent_streams')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('stream_key', 'text', (column) => column.notNull())
      .addColumn('agent', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('mention', 'text')
      .addColumn('text_encrypted', 'text', (column) => column.notNull())
      .addColumn('length', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('started', 'text', (column) => column.notNull())
      .addColumn('updated', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('agent_streams_key_unique').on('agent_streams').unique().columns(['agent', 'stream_key']).execute();
    await db.schema.createIndex('agent_streams_chat_index').on('agent_streams').columns(['chat', 'started']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('agent_streams').execute();
    await db.schema.dropTable('agent_mentions').execute();
  },
};
