import type { Insertable, Kysely, Selectable } from 'kysely';
import { isUniqueViolation, type DialectName } from '../database';
import type { Database, MessagesTable } from '../schema';
import { MessageInsert } from './messageInsert';

export type MessageRow = Selectable<MessagesTable>;
export type NewMessageRow = Omit<Insertable<MessagesTable>, 'seq'> & { id: string };

/** A message with the author fields the realtime wire form needs. */
export interface MessageWithAuthor extends MessageRow {
  author_name: string;
  author_username: string;
  author_type: string;
}

export interface InsertedMessage {
  row: MessageRow;
  /** False when a retried client_id matched an already stored message. */
  created: boolean;
}

/** What a reply quotes of its original (the wire's ReplyPreview is made from it). */
export interface ReplyOriginal {
  id: string;
  content_encrypted: string;
  deleted_at: string | null;
  author_name: string;
  author_username: string;
}

/** Seq conflicts cannot happen while the chat row lock holds; retries only guard the index. */
const insertAttempts = 5;

export class MessagesRepository {
  private readonly inserter: MessageInsert;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectName,
  ) {
    this.inserter = new MessageInsert(db, dialect);
  }

  async findById(id: string): Promise<MessageRow | undefined> {
    return this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByClientId(chatId: string, authorId: string, clientId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('chat', '=', chatId)
      .where('author', '=', authorId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /**
   * Inserts the message with the chat's next seq and bumps the chat's `updated` (chat lists
   * sort by -updated) in one transaction. A retry carrying an already stored client_id returns
   * the stored message instead of a duplicate. `authorHasRead`: the author's read position moves
   * onto the message in the same transaction (a person has read what they wrote).
   */
  async insert(row: NewMessageRow, { authorHasRead = false } = {}): Promise<InsertedMessage> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return { row: await this.inserter.run(row, authorHasRead), created: true };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (row.client_id !== null && row.client_id !== undefined) {
          const existing = await this.findByClientId(row.chat, row.author, row.client_id);
          if (existing !== undefined) return { row: existing, created: false };
        }
        if (attempt >= insertAttempts) throw error;
      }
    }
  }

  /** Messages of a chat after `afterSeq`, in seq order, with their authors. */
  async listAfterSeq(chatId: string, afterSeq: number, limit: number): Promise<MessageWithAuthor[]> {
    const rows = await this.db
      .selectFrom('messages')
      .innerJoin('users', 'users.id', 'messages.author')
      .selectAll('messages')
      .select(['users.name as author_name', 'users.username as author_username', 'users.type as author_type'])
      .where('messages.chat', '=', chatId)
      .where('messages.seq', '>', afterSeq)
      .orderBy('messages.seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  /**
   * The `limit` messages of a chat just before `beforeSeq`, oldest first, with their authors (a
   * mention's context, @email's list of mails). Deleted messages are left out: what was taken back
   * is not handed to agents.
   */
  async listBeforeSeq(chatId: string, beforeSeq: number, limit: number): Promise<MessageWithAuthor[]> {
    const rows = await this.db
      .selectFrom('messages')
      .innerJoin('users', 'users.id', 'messages.author')
      .selectAll('messages')
      .select(['users.name as author_name', 'users.username as author_username', 'users.type as author_type'])
      .where('messages.chat', '=', chatId)
      .where('messages.seq', '<', beforeSeq)
      .where('messages.deleted_at', 'is', null)
      .orderBy('messages.seq', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  /** Replaces the content of a message that is not deleted; false when there is none. */
  async edit(id: string, contentEncrypted: string, at: string): Promise<MessageRow | undefined> {
    const result = await this.db
      .updateTable('messages')
      .set({ content_encrypted: contentEncrypted, edited_at: at, updated: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? this.findById(id) : undefined;
  }

  /** Deletes a message but keeps its row (and seq): content emptied, deleted_at set. Undefined when already deleted. */
  async softDelete(id: string, emptyEncrypted: string, at: string): Promise<MessageRow | undefined> {
    const result = await this.db
      .updateTable('messages')
      .set({ content_encrypted: emptyEncrypted, deleted_at: at, updated: at })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? this.findById(id) : undefined;
  }

  /** The originals that replies quote, by id, with their authors' names (deleted ones included). */
  async replyOriginals(ids: readonly string[]): Promise<Map<string, ReplyOriginal>> {
    const originals = new Map<string, ReplyOriginal>();
    if (ids.length === 0) return originals;
    const rows = await this.db
      .selectFrom('messages')
      .innerJoin('users', 'users.id', 'messages.author')
      .select(['messages.id', 'messages.content_encrypted', 'messages.deleted_at', 'users.name as author_name', 'users.username as author_username'])
      .where('messages.id', 'in', [...new Set(ids)])
      .execute();
    for (const row of rows) originals.set(row.id, row);
    return originals;
  }

  /** A thread for an agent's context: the original, then its latest `limit - 1` standing replies, in order. */
  async thread(chatId: string, originalId: string, limit: number): Promise<MessageWithAuthor[]> {
    const withAuthor = this.db
      .selectFrom('messages')
      .innerJoin('users', 'users.id', 'messages.author')
      .selectAll('messages')
      .select(['users.name as author_name', 'users.username as author_username', 'users.type as author_type'])
      .where('messages.chat', '=', chatId)
      .where('messages.deleted_at', 'is', null);
    const [original, replies] = await Promise.all([
      withAuthor.where('messages.id', '=', originalId).executeTakeFirst(),
      withAuthor.where('messages.reply_to', '=', originalId).orderBy('messages.seq', 'desc').limit(Math.max(0, limit - 1)).execute(),
    ]);
    const rows = [...(original === undefined ? [] : [original]), ...replies.reverse()];
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }

  /** The file messages that announce a file (one, unless something raced). */
  async findByFile(fileId: string): Promise<MessageRow[]> {
    return this.db.selectFrom('messages').selectAll().where('file', '=', fileId).execute();
  }

  /** Replaces the structured part of a file message or system line, bumping `updated` for catch-up. */
  async setDetails(id: string, details: string, at: string): Promise<MessageRow | undefined> {
    await this.db.updateTable('messages').set({ details, updated: at }).where('id', '=', id).execute();
    return this.findById(id);
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('messages').where('id', '=', id).execute();
  }
}
