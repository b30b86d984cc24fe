import type { Insertable, Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../database';
import type { Database, MessagesTable } from '../schema';

export type MessageRow = Selectable<MessagesTable>;

export class MessagesRepository {
  constructor(private readonly db: Kysely<Database>) {}

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
   * Inserts the message and bumps its chat's `updated` (chat lists sort by -updated). A retry
   * carrying an already stored client_id returns the stored message instead of a duplicate.
   */
  async insert(row: Insertable<MessagesTable> & { id: string }): Promise<MessageRow> {
    try {
      await this.db.transaction().execute(async (transaction) => {
        await transaction.insertInto('messages').values(row).execute();
        await transaction.updateTable('chats').set({ updated: row.created }).where('id', '=', row.chat).execute();
      });
    } catch (error) {
      if (isUniqueViolation(error) && row.client_id !== null && row.client_id !== undefined) {
        const existing = await this.findByClientId(row.chat, row.author, row.client_id);
        if (existing !== undefined) return existing;
      }
      throw error;
    }
    const stored = await this.findById(row.id);
    if (stored === undefined) throw new Error('inserted message vanished');
    return stored;
  }

  async updateContent(id: string, contentEncrypted: string, updated: string): Promise<void> {
    await this.db.updateTable('messages').set({ content_encrypted: contentEncrypted, updated }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('messages').where('id', '=', id).execute();
  }
}
