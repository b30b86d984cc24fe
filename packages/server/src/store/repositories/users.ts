import { sql, type Kysely, type Selectable, type Insertable, type Updateable } from 'kysely';
import { compiledOnce } from '../compiledOnce';
import type { Database, UsersTable } from '../schema';

export type UserRow = Selectable<UsersTable>;

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every authenticated request asks for its user: compiled once. */
  private readonly byId = compiledOnce((id: string) => this.db.selectFrom('users').selectAll().where('id', '=', id));

  async findById(id: string): Promise<UserRow | undefined> {
    return (await this.byId.execute(this.db, id)).rows[0];
  }

  async findManyByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', [...ids]).execute();
  }

  /** Identity is a username (any case) or an e-mail (stored lower-cased). */
  async findByIdentity(identity: string): Promise<UserRow | undefined> {
    const lowered = identity.trim().toLowerCase();
    if (lowered === '') return undefined;
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((builder) =>
        // The record id is an identity too (as in PocketBase's configurable identity fields), so the
        // complete-signup link, which carries only user_id and a temporary password, can sign in.
        builder.or([builder(sql`lower(username)`, '=', lowered), builder('email', '=', lowered), builder('id', '=', lowered)]),
      )
      .executeTakeFirst();
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const lowered = email.trim().toLowerCase();
    if (lowered === '') return undefined;
    return this.db.selectFrom('users').selectAll().where('email', '=', lowered).executeTakeFirst();
  }

  async usernameTaken(username: string, exceptId?: string): Promise<boolean> {
    let query = this.db.selectFrom('users').select('id').where(sql`lower(username)`, '=', username.toLowerCase());
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.findByEmail(email)) !== undefined;
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select(sql<number | string>`count(*)`.as('count')).executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /**
   * Makes the user the server's first admin if nobody has claimed that yet: one insert into a
   * primary key decides, so of six registrations at once on a fresh server exactly one wins.
   */
  async claimFirstAdmin(userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('server_claims')
      .values({ name: 'first_admin', user_id: userId, created: now })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
    await this.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', userId).execute();
    return true;
  }

  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('users').select('id').where('id', 'in', [...ids]).execute();
    return new Set(rows.map((row) => row.id));
  }

  async insert(row: Insertable<UsersTable>): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async update(id: string, changes: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  async findByUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
  }

  /** People (type user) whose username or name contains the text, case-insensitively; ids, usernames and names only. */
  async search(text: string, limit: number): Promise<{ id: string; username: string; name: string }[]> {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'name'])
      .where('type', '=', 'user')
      .where((builder) =>
        builder.or([
          builder(sql`lower(username)`, 'like', sql`${pattern} escape '\\'`),
          builder(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      )
      .orderBy('username')
      .limit(limit)
      .execute();
  }
}
