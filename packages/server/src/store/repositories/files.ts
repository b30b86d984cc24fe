import type { Kysely, Selectable } from 'kysely';
import type { Database, FilesTable } from '../schema';

export type FileRow = Selectable<FilesTable>;

export class FilesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(id: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('files').where('id', '=', id).execute();
  }
}
