import type { Kysely, Migration } from 'kysely';

/**
 * `mail_queue`: every outgoing mail (invitations, password resets, @email sends, missed-mention
 * mails), kept in the database until the relay took it, so a relay that is down loses nothing
 * (docs/OPERATIONS.md, Outbound mail; mail/queue.ts).
 *
 * A row is `pending` until an attempt `sent` it, a permanent refusal or a day of retries `failed`
 * it, or a newer mail of the same `group_key` (a newer reset link for the same account, a newer
 * invitation to the same address and chat) `superseded` it before it went. `next_attempt_at` is
 * when a worker may claim it next; a claim moves it to the end of the claim's lease and sets
 * `claim_token`, in one UPDATE (with FOR UPDATE SKIP LOCKED on PostgreSQL), so of several instances
 * one sends a row, and a row whose sender died is claimed again once its lease is over.
 *
 * `mail_encrypted` (recipient, subject, bodies, headers) is encrypted like message content and
 * emptied once the row is finished: reset and invitation links are live secrets. `to_domain` and
 * `kind` are all the row says in the clear, for logs and metrics. Portable types only, as in 001.
 */
export const mailQueueMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('mail_queue')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('group_key', 'text')
      .addColumn('message_id', 'text', (column) => column.notNull())
      .addColumn('to_domain', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('mail_encrypted', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created', 'text', (column) => column.notNull())
      .addColumn('next_attempt_at', 'text', (column) => column.notNull())
      .addColumn('give_up_at', 'text', (column) => column.notNull())
      .addColumn('claim_token', 'text')
      .addColumn('last_error', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('mail_queue_due_index').on('mail_queue').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('mail_queue_group_index').on('mail_queue').columns(['group_key', 'status']).execute();
    await db.schema.createIndex('mail_queue_finished_index').on('mail_queue').column('finished_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mail_queue').execute();
  },
};
