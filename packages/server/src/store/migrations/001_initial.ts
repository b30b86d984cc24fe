import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The complete docs/PRODUCT.md §3 schema, created at once so later issues add behaviour, not
 * rewrites. Only portable types: TEXT, INTEGER, and expression/partial indexes both dialects
 * support.
 */

const idColumn = 'text';

async function createMembershipTable(db: Kysely<unknown>, table: string): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('chat_id', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', idColumn, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint(`${table}_pkey`, ['chat_id', 'user_id'])
    .execute();
  await db.schema.createIndex(`${table}_user_index`).on(table).columns(['user_id', 'chat_id']).execute();
}

async function createReactionTable(db: Kysely<unknown>, table: string, ownerTable: string, ownerColumn: string): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn(ownerColumn, idColumn, (column) => column.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
    .addColumn('user_id', idColumn, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint(`${table}_pkey`, [ownerColumn, 'user_id'])
    .execute();
  await db.schema.createIndex(`${table}_user_index`).on(table).columns(['user_id']).execute();
}

async function createUsers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('username', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('email', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('email_visibility', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('verified', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('token_key', 'text', (column) => column.notNull())
    .addColumn('is_admin', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('type', 'text', (column) => column.notNull().defaultTo('user'))
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_by', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('site_wide_available', 'integer')
    .addColumn('dev_room_id', idColumn)
    .addColumn('api_key_hash', 'text')
    .addColumn('openai_api_key_encrypted', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('gemini_api_key_encrypted', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('soft_registered', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('signup_completed', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  // Usernames are unique regardless of case; e-mails are stored lower-cased, unique when present.
  await db.schema.createIndex('users_username_unique').on('users').unique().expression(sql`lower(username)`).execute();
  await db.schema.createIndex('users_email_unique').on('users').unique().column('email').where(sql.ref('email'), '<>', '').execute();
  await db.schema.createIndex('users_api_key_unique').on('users').unique().column('api_key_hash').execute();
  await db.schema.createIndex('users_type_index').on('users').columns(['type', 'created_by']).execute();
}

async function createChatsAndMessages(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chats')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('creator', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('email_address', 'text', (column) => column.notNull().unique())
    .addColumn('is_inbox', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('auto_route_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('auto_route_agent', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('agent_permissions', 'text')
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  await createMembershipTable(db, 'chat_participants');
  await createMembershipTable(db, 'chat_admins');
  await db.schema
    .createTable('messages')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('chat', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('author', idColumn, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_encrypted', 'text', (column) => column.notNull())
    .addColumn('message_type', 'text', (column) => column.notNull().defaultTo('regular'))
    .addColumn('client_id', 'text')
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  // Keyset paging of history walks (chat, created, id).
  await db.schema.createIndex('messages_chat_created_index').on('messages').columns(['chat', 'created', 'id']).execute();
  // A retried send with the same client_id must not create a second message.
  await db.schema
    .createIndex('messages_client_id_unique')
    .on('messages')
    .unique()
    .columns(['chat', 'author', 'client_id'])
    .where(sql.ref('client_id'), 'is not', null)
    .execute();
}

async function createFilesAndTokens(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('chat', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('uploaded_by', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('file', 'text', (column) => column.notNull())
    .addColumn('original_name', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('mime_type', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('size', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('files_chat_index').on('files').columns(['chat', 'created']).execute();
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('user_id', idColumn, (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('expires', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('password_reset_tokens_user_index').on('password_reset_tokens').column('user_id').execute();
}

async function createSharingAndDrops(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('chat', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('invited_by', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('email', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('username', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('link_type', 'text', (column) => column.notNull().defaultTo('email'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('expires', 'text', (column) => column.notNull())
    .addColumn('accepted_by', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('accepted_at', 'text')
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('share_links')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('chat', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('created_by', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('expires', 'text', (column) => column.notNull())
    .addColumn('max_uses', 'integer', (column) => column.notNull().defaultTo(50))
    .addColumn('use_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('revoked_at', 'text')
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('drops')
    .addColumn('id', idColumn, (column) => column.primaryKey())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('chat', idColumn, (column) => column.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('author', idColumn, (column) => column.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('excerpt', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('featured_image', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('tags', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('view_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('reading_time', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('published_at', 'text', (column) => column.notNull())
    .addColumn('created', 'text', (column) => column.notNull())
    .addColumn('updated', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('drops_chat_index').on('drops').columns(['chat', 'published_at']).execute();
  await db.schema.createIndex('drops_published_index').on('drops').columns(['published_at', 'id']).execute();
  await createReactionTable(db, 'drop_likes', 'drops', 'drop_id');
  await createReactionTable(db, 'drop_bookmarks', 'drops', 'drop_id');
  await createReactionTable(db, 'chat_follows', 'chats', 'chat_id');
}

export const initialMigration: Migration = {
  async up(db) {
    await createUsers(db);
    await createChatsAndMessages(db);
    await createFilesAndTokens(db);
    await createSharingAndDrops(db);
  },
  async down(db) {
    const tables = [
      'chat_follows', 'drop_bookmarks', 'drop_likes', 'drops', 'share_links', 'invitations',
      'password_reset_tokens', 'files', 'messages', 'chat_admins', 'chat_participants', 'chats', 'users',
    ];
    for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
  },
};
