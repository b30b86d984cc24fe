import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One-time claims of the whole server, decided by a primary key: of any number of concurrent
 * inserts of one name, on any number of instances, exactly one succeeds. 'first_admin' is the
 * first registration's claim to be the server's admin; a server that already has accounts has
 * given it away.
 */
export const serverClaimsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('server_claims')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('created', 'text', (column) => column.notNull())
      .execute();
    await sql`insert into server_claims (name, user_id, created)
      select 'first_admin', id, created from users order by created, id limit 1`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('server_claims').execute();
  },
};
