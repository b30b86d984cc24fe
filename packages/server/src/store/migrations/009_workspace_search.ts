import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * `workspace_search`: the text @deep searches in a chat, one row per drop and per
 * uploaded file (title, and the text of text files), deleted with its drop, file or chat by the
 * foreign keys. The full-text index differs by dialect:
 * - SQLite: an FTS5 table over the rows (external content, porter stemming), kept in step by triggers;
 * - PostgreSQL: a stored tsvector column (English stemming, the title weighted above the body) with a GIN index.
 * Rows are added when a chat is searched (see agents/tools/search/workspace.ts): drops and files
 * never change after they are made, so a missing row is the only staleness.
 */
export const workspaceSearchMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workspace_search')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('chat', 'text', (column) => column.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('drop_id', 'text', (column) => column.unique().references('drops.id').onDelete('cascade'))
      .addColumn('file_id', 'text', (column) => column.unique().references('files.id').onDelete('cascade'))
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('body', 'text', (column) => column.notNull())
      /** Where the result links to, under the server's public URL: `/drops/{slug}`, `/api/files/…`. */
      .addColumn('link', 'text', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('workspace_search_chat_index').on('workspace_search').column('chat').execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`alter table workspace_search add column search_vector tsvector generated always as (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`.execute(db);
      await sql`create index workspace_search_vector_index on workspace_search using gin (search_vector)`.execute(db);
      return;
    }
    await sql`create virtual table workspace_search_fts using fts5(title, body, content='workspace_search', content_rowid='rowid', tokenize='porter unicode61')`.execute(db);
    await sql`create trigger workspace_search_after_insert after insert on workspace_search begin
      insert into workspace_search_fts (rowid, title, body) values (new.rowid, new.title, new.body); end`.execute(db);
    await sql`create trigger workspace_search_after_delete after delete on workspace_search begin
      insert into workspace_search_fts (workspace_search_fts, rowid, title, body) values ('delete', old.rowid, old.title, old.body); end`.execute(db);
    await sql`create trigger workspace_search_after_update after update on workspace_search begin
      insert into workspace_search_fts (workspace_search_fts, rowid, title, body) values ('delete', old.rowid, old.title, old.body);
      insert into workspace_search_fts (rowid, title, body) values (new.rowid, new.title, new.body); end`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`drop table if exists workspace_search_fts`.execute(db);
    await db.schema.dropTable('workspace_search').execute();
  },
};
