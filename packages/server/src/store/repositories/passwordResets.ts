import type { Kysely, Selectable } from 'kysely';
import type { Database, PasswordResetTokensTable } from '../schema';

export type PasswordResetRow = Selectable<PasswordResetTokensTable>;

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new request invalidates every older unused token of the user. */
  async replaceForUser(row: PasswordResetRow): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('password_reset_tokens')
        .set({ used_at: row.created })
        .where('user_id', '=', row.user_id)
        .where('used_at', 'is', null)
        .execute();
      await transaction.insertInto('password_reset_tokens').values(row).execute();
    });
  }

  /** Ends every unused token of the user (a password was changed or reset). */
  async revokeForUser(userId: string, usedAt: string): Promise<void> {
    await this.db.updateTable('password_reset_tokens').set({ used_at: usedAt }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }

  async findByHash(tokenHash: string): Promise<PasswordResetRow | undefined> {
    return this.db.selectFrom('password_reset_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks the token used; false when another request already consumed it (single use). */
  async consume(id: string, usedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('password_reset_tokens')
      .set({ used_at: usedAt })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
