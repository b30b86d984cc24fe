import type { Kysely, Migration } from 'kysely';

/**
 * File messages and system lines (docs/CONTRACTS.md, File messages and system lines). `file` names
 * the file a file message announces, so deleting the file finds its card (hence the index);
 * `details` holds the structured part clients render, as JSON: the file's name, type and size (and
 * `deleted`) of a file message, or what a system line tells. Not encrypted like `content`: a file
 * name, a person's name and a chat name are stored in the clear in their own tables already.
 */
export const fileAndSystemMessagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('messages').addColumn('file', 'text').execute();
    await db.schema.alterTable('messages').addColumn('details', 'text').execute();
    await db.schema.createIndex('messages_file_index').on('messages').column('file').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('messages_file_index').execute();
    await db.schema.alterTable('messages').dropColumn('details').execute();
    await db.schema.alterTable('messages').dropColumn('file').execute();
  },
};
