import { sql, type Kysely } from 'kysely';
import { compiledOnce, type Executor } from '../compiledOnce';
import type { DialectName } from '../database';
import type { Database } from '../schema';
import type { MessageRow, NewMessageRow } from './messages';
import { markReadQuery } from './reads';

interface Pending {
  row: NewMessageRow;
  authorHasRead: boolean;
  resolve: (row: MessageRow) => void;
  reject: (error: unknown) => void;
}

/** Messages per transaction at most: bounds how long one holds SQLite's event loop or PostgreSQL's locks. */
const maxBatch = 64;

/** The columns a message is stored with, in the order of the insert's arguments. */
function valuesOf(row: NewMessageRow) {
  return [
    row.id, row.chat, row.author, row.content_encrypted, row.message_type, row.client_id ?? null, row.edited_at ?? null,
    row.deleted_at ?? null, row.reply_to ?? null, row.file ?? null, row.details ?? null, row.created, row.updated,
  ] as const;
}

/**
 * Stores one message: the chat's next seq (and its `updated`, which chat lists sort by), the row,
 * the original's reply count when it is a reply, and, with `authorHasRead`, the author's read
 * position moved onto it; all or nothing, and the stored row read back. This is the send path, so
 * every statement is compiled once.
 *
 * The commit is what costs: on SQLite a WAL frame for each page written (the row, seven indexes,
 * the chat); on PostgreSQL the wait for the WAL to reach the disk, with the chat row locked
 * meanwhile, so sends to one chat would commit one after another. So the messages that reach this
 * point in one turn of the event loop (the requests read from every socket that was ready), and
 * those that arrive while a commit runs, are stored together in one transaction, each answered
 * only after the commit that holds it. Should one be refused (a retried client_id), that
 * transaction holds none of them, and each is stored again on its own, so only that one fails. On PostgreSQL each message is one statement
 * whose parts share the transaction (one round trip, not four).
 */
export class MessageInsert {
  private readonly waiting: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async run(row: NewMessageRow, authorHasRead: boolean): Promise<MessageRow> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, authorHasRead, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.writeWaiting());
      }
    });
  }

  /** Commits what is waiting, a batch per transaction, until nothing is. */
  private async writeWaiting(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        // By chat (a stable sort: each chat's messages keep their order): every batch, on every
        // instance, locks chat rows in the same order, so two batches never wait for each other.
        const batch = this.waiting.splice(0, maxBatch).sort((a, b) => (a.row.chat < b.row.chat ? -1 : a.row.chat > b.row.chat ? 1 : 0));
        try {
          const stored = await this.storeTogether(batch);
          batch.forEach((pending, index) => pending.resolve(stored[index]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          // One of them was refused (a retried client_id, most likely) and took the others with
          // it: each again on its own, so only the refused one fails.
          else for (const pending of batch) await this.storeTogether([pending]).then(([stored]) => pending.resolve(stored!), pending.reject);
        }
      }
    } finally {
      this.scheduled = false;
    }
  }

  private async storeTogether(batch: readonly Pending[]): Promise<MessageRow[]> {
    // On PostgreSQL a message alone is one statement, atomic by itself: no BEGIN and COMMIT round
    // trips around it (the usual case below saturation, where latency is what counts).
    if (this.dialect === 'postgres' && batch.length === 1) return [await this.steps(this.db, batch[0]!)];
    return this.db.transaction().execute(async (transaction) => {
      const stored: MessageRow[] = [];
      for (const pending of batch) stored.push(await this.steps(transaction, pending));
      return stored;
    });
  }

  private async steps(transaction: Executor, { row, authorHasRead }: Pending): Promise<MessageRow> {
    if (this.dialect === 'postgres') {
      const [stored] = (await this.oneStatement.execute(transaction, ...valuesOf(row), authorHasRead)).rows;
      if (stored === undefined) throw new Error('no chat to count the message in');
      return stored;
    }
    const [counter] = (await this.nextSeq.execute(transaction, row.chat, row.created)).rows;
    if (counter === undefined) throw new Error('no chat to count the message in');
    const seq = Number(counter.last_seq);
    const [inserted] = (await this.insertReturning.execute(transaction, ...valuesOf(row), seq)).rows;
    if (inserted === undefined) throw new Error('the inserted message was not returned');
    // The original's count and `updated` move with its reply, so a client catching up by
    // `updated` learns the new count too (docs/CONTRACTS.md, Replies).
    if (row.reply_to !== null && row.reply_to !== undefined) await this.countReply.execute(transaction, row.reply_to, row.created);
    if (authorHasRead) await this.authorRead.execute(transaction, row.chat, row.author, seq, row.created);
    return inserted;
  }

  private readonly nextSeq = compiledOnce((chatId: string, updated: string) =>
    this.db.updateTable('chats').set((eb) => ({ last_seq: eb('last_seq', '+', 1), updated })).where('id', '=', chatId).returning('last_seq'),
  );
  private readonly insertReturning = compiledOnce(
    (id: string, chat: string, author: string, contentEncrypted: string, messageType: string, clientId: string | null, editedAt: string | null,
      deletedAt: string | null, replyTo: string | null, file: string | null, details: string | null, created: string, updated: string, seq: number) =>
      this.db
        .insertInto('messages')
        .values({
          id, chat, author, content_encrypted: contentEncrypted, message_type: messageType, client_id: clientId, seq,
          edited_at: editedAt, deleted_at: deletedAt, reply_to: replyTo, file, details, created, updated,
        })
        .returningAll(),
  );
  private readonly countReply = compiledOnce((originalId: string, updated: string) =>
    this.db.updateTable('messages').set((eb) => ({ reply_count: eb('reply_count', '+', 1), updated })).where('id', '=', originalId),
  );
  private readonly authorRead = markReadQuery();

  /** PostgreSQL's: the same steps as data-modifying parts of one statement. */
  private readonly oneStatement = compiledOnce(
    (id: string, chat: string, author: string, contentEncrypted: string, messageType: string, clientId: string | null, editedAt: string | null,
      deletedAt: string | null, replyTo: string | null, file: string | null, details: string | null, created: string, updated: string, authorHasRead: boolean) =>
      sql<MessageRow>`with counter as (
          update chats set last_seq = last_seq + 1, updated = cast(${created} as text) where id = cast(${chat} as text) returning last_seq
        ), inserted as (
          insert into messages (id, chat, author, content_encrypted, message_type, client_id, seq, edited_at, deleted_at, reply_to, file, details, created, updated)
          select cast(${id} as text), cast(${chat} as text), cast(${author} as text), cast(${contentEncrypted} as text), cast(${messageType} as text),
            cast(${clientId} as text), counter.last_seq, cast(${editedAt} as text), cast(${deletedAt} as text), cast(${replyTo} as text),
            cast(${file} as text), cast(${details} as text), cast(${created} as text), cast(${updated} as text)
          from counter
          returning *
        ), replied as (
          update messages set reply_count = reply_count + 1, updated = cast(${created} as text)
          where id = cast(${replyTo} as text) and exists (select 1 from inserted)
        ), author_read as (
          insert into chat_reads (chat_id, user_id, last_read_seq, muted, updated)
          select inserted.chat, inserted.author, inserted.seq, 0, inserted.created from inserted where cast(${authorHasRead} as boolean)
          on conflict (chat_id, user_id) do update set
            last_read_seq = case when excluded.last_read_seq > chat_reads.last_read_seq then excluded.last_read_seq else chat_reads.last_read_seq end,
            updated = excluded.updated
        )
        select * from inserted`,
  );
}
