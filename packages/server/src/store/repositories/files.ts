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

  /**
   * The live website's lookup: the newest file of the chat under this original name that a person
   * uploaded. Files a mail brought (uploaded by the `email` agent) or any agent stored never are
   * the site, nor shadow one of its files (docs/SECURITY.md M6).
   */
  async findNewestUploadedByPerson(chatId: string, originalName: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('files')
      .innerJoin('users', 'users.id', 'files.uploaded_by')
      .selectAll('files')
      .where('files.chat', '=', chatId)
      .where('files.original_name', '=', originalName)
      .where('users.type', '=', 'user')
      .orderBy('files.created', 'desc')
      .orderBy('files.id', 'desc')
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
