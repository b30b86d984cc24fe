import type { Kysely } from 'kysely';
import type { ConfabDatabase, DialectName } from '../database';

export type MailQueueStatus = 'pending' | 'sent' | 'failed' | 'superseded';

/** The `mail_queue` table (migration 019): one outgoing mail, encrypted, until the relay took it. */
export interface MailQueueTable {
  id: string;
  /** 'invitation' | 'password_reset' | 'email_agent' | 'missed_mentions'. */
  kind: string;
  /** Mails of one group replace each other while pending (a newer reset link, a newer invitation). */
  group_key: string | null;
  /** The mail's Message-ID, with its angle brackets: the same on every attempt. */
  message_id: string;
  to_domain: string;
  /** The mail as JSON, encrypted (mail/queue.ts); '' once the row is finished. */
  mail_encrypted: string;
  status: MailQueueStatus;
  attempts: number;
  created: string;
  /** When the row may be claimed next; a claim sets it to the end of its lease. */
  next_attempt_at: string;
  /** After this, a temporary failure fails the mail instead of scheduling another attempt. */
  give_up_at: string;
  /** The current claim; only its holder may finish or reschedule the row. */
  claim_token: string | null;
  /** The last failure as codes only ('ECONNECTION', '451 EMESSAGE'): never an address or a text. */
  last_error: string;
  finished_at: string | null;
}

export type MailQueueRow = MailQueueTable;

type QueueDatabase = Kysely<{ mail_queue: MailQueueTable }>;

/**
 * The durable outgoing-mail queue, shared by every instance through the database. Claims are one
 * UPDATE each (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so two instances claiming at once take
 * different rows without waiting on each other); every later change of a row names the claim's
 * token, so an instance whose lease ran out can no longer finish a row another one has claimed.
 */
export class MailQueueRepository {
  private readonly db: QueueDatabase;
  private readonly dialect: DialectName;

  constructor(database: ConfabDatabase) {
    this.db = database.db.withTables<{ mail_queue: MailQueueTable }>() as unknown as QueueDatabase;
    this.dialect = database.dialect;
  }

  /**
   * Stores a new mail, already claimed by its enqueuer (`claim_token`, `next_attempt_at` = the end
   * of the lease, one attempt counted), so the first attempt is made right away and no worker takes
   * the row meanwhile. Pending mails of the same group are superseded in the same transaction.
   */
  async insertClaimed(row: Omit<MailQueueRow, 'status' | 'last_error' | 'finished_at'>): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      if (row.group_key !== null) {
        await transaction
          .updateTable('mail_queue')
          .set({ status: 'superseded', mail_encrypted: '', claim_token: null, finished_at: row.created })
          .where('group_key', '=', row.group_key)
          .where('status', '=', 'pending')
          .execute();
      }
      await transaction.insertInto('mail_queue').values({ ...row, status: 'pending', last_error: '', finished_at: null }).execute();
    });
  }

  /** Whether any row is due at `now` (a cheap read before the claim, which writes). */
  async hasDue(now: string): Promise<boolean> {
    const row = await this.db.selectFrom('mail_queue').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Claims up to `limit` due rows for `token` until `leaseUntil`, oldest due first, counting an
   * attempt on each. Answers the rows claimed (other instances' claims are skipped, never waited on).
   */
  async claimDue(options: { now: string; leaseUntil: string; token: string; limit: number }): Promise<MailQueueRow[]> {
    const { now, leaseUntil, token, limit } = options;
    let due = this.db
      .selectFrom('mail_queue')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit);
    if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('mail_queue')
      .set((eb) => ({ claim_token: token, next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .returningAll()
      .execute();
  }

  /** The relay took the mail: sent, body dropped. False when the claim was lost meanwhile. */
  async markSent(id: string, token: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mail_queue')
      .set({ status: 'sent', mail_encrypted: '', claim_token: null, finished_at: now, last_error: '' })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Given up (a permanent refusal, or a day of temporary ones): failed, body dropped. */
  async markFailed(id: string, token: string, now: string, error: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mail_queue')
      .set({ status: 'failed', mail_encrypted: '', claim_token: null, finished_at: now, last_error: error })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A temporary failure: due again at `nextAttemptAt`, unclaimed (unless superseded meanwhile). */
  async reschedule(id: string, token: string, nextAttemptAt: string, error: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mail_queue')
      .set({ next_attempt_at: nextAttemptAt, claim_token: null, last_error: error })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Mails not sent yet, waiting or being tried: the queue depth. */
  async pendingCount(): Promise<number> {
    const row = await this.db.selectFrom('mail_queue').select((eb) => eb.fn.countAll<number | string>().as('count')).where('status', '=', 'pending').executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Removes rows finished before `before` (their bodies are already gone); answers how many. */
  async purgeFinished(before: string): Promise<number> {
    const result = await this.db.deleteFrom('mail_queue').where('status', '!=', 'pending').where('finished_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** One row, for tests and diagnostics. */
  async findById(id: string): Promise<MailQueueRow | undefined> {
    return this.db.selectFrom('mail_queue').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
