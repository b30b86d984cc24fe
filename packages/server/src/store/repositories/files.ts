import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, FilesTable } from '../schema';

export type FileRow = Selectable<FilesTable>;

export class FilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: Insertable<FilesTable>): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  /** The newest file of the chat uploaded under this original name (the live website's lookup). */
  async findNewestByOriginalName(chatId: string, originalName: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('chat', '=', chatId)
      .where('original_name', '=', originalName)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every file of a chat, oldest first (@data loads them as tables in this order). */
  async listByChat(chatId: string): Promise<FileRow[]> {
    return this.db.selectFrom('files').selectAll().where('chat', '=', chatId).orderBy('created', 'asc').orderBy('id', 'asc').execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('files').where('id', '=', id).execute();
  }
}
