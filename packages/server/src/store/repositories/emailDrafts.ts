import type { Kysely } from 'kysely';
import type { ConfabDatabase } from '../database';

/** The `email_drafts` table (migration 011): a shown @email draft waiting for its asker, encrypted. */
export interface EmailDraftsTable {
  id: string;
  chat: string;
  asker: string;
  draft_encrypted: string;
  created: string;
  expires_at: string;
  /** Set by the one update that takes the draft (sent or cancelled); null while it waits. */
  claimed_at: string | null;
}

export type EmailDraftRow = EmailDraftsTable;

/**
 * Drafts of @email, shared by every instance through the database. A draft is taken by a
 * conditional update (`claimed_at` null → now): of two confirmations racing, on one instance or
 * two, exactly one claims it, so a draft is sent at most once.
 */
export class EmailDraftsRepository {
  private readonly db: Kysely<{ email_drafts: EmailDraftsTable }>;

  constructor(database: ConfabDatabase) {
    this.db = database.db.withTables<{ email_drafts: EmailDraftsTable }>() as unknown as Kysely<{ email_drafts: EmailDraftsTable }>;
  }

  /**
   * Stores `row` as the asker's one waiting draft in its chat: an older waiting draft of theirs
   * there is claimed (replaced, never sent), and drafts taken or expired by `row.created` are removed.
   */
  async replace(row: Omit<EmailDraftRow, 'claimed_at'>): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction
        .updateTable('email_drafts')
        .set({ claimed_at: row.created })
        .where('chat', '=', row.chat)
        .where('asker', '=', row.asker)
        .where('claimed_at', 'is', null)
        .execute();
      await transaction
        .deleteFrom('email_drafts')
        .where((where) => where.or([where('claimed_at', 'is not', null), where('expires_at', '<=', row.created)]))
        .execute();
      await transaction.insertInto('email_drafts').values({ ...row, claimed_at: null }).execute();
    });
  }

  /** The asker's newest draft in the chat that nobody has taken and that has not expired at `now`. */
  async findWaiting(chatId: string, askerId: string, now: string): Promise<EmailDraftRow | undefined> {
    return this.db
      .selectFrom('email_drafts')
      .selectAll()
      .where('chat', '=', chatId)
      .where('asker', '=', askerId)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Takes the draft: true for the one caller whose update found it waiting and unexpired. */
  async claim(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('email_drafts')
      .set({ claimed_at: now })
      .where('id', '=', id)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Puts a claimed draft back (it was certainly not sent, e.g. the sender's hourly limit was reached). */
  async release(id: string, claimedAt: string): Promise<void> {
    await this.db.updateTable('email_drafts').set({ claimed_at: null }).where('id', '=', id).where('claimed_at', '=', claimedAt).execute();
  }
}
