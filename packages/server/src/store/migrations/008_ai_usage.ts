import type { Kysely, Migration } from 'kysely';

/**
 * `ai_usage` (docs/CONTRACTS.md, Hosted agents): the tokens of every AI provider call a hosted
 * agent made for a person, one row per call, whichever key paid (the person's own or the server's).
 * My Profile shows the person's total (`ai_tokens_used` on their own user record).
 */
export const aiUsageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_usage')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('user', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('model', 'text', (column) => column.notNull())
      .addColumn('key_owner', 'text', (column) => column.notNull())
      .addColumn('input_tokens', 'integer', (column) => column.notNull())
      .addColumn('output_tokens', 'integer', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('ai_usage_user_index').on('ai_usage').columns(['user', 'created']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('ai_usage').execute();
  },
};
