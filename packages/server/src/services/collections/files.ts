import { filesSchema } from '../../store/collections';
import { chatHasParticipant, never } from '../../store/conditions';
import type { FileRow } from '../../store/repositories/files';
import type { RequestAuth, ServiceContext } from '../context';
import { recordErrors } from '../recordErrors';
import { collectionIds, type RecordCollection, type RecordJson } from './types';

/**
 * The files collection: schema and read rules now; uploads arrive with the files issue, so
 * creating and editing answer as a failed rule would until then.
 */
export class FilesCollection implements RecordCollection {
  readonly name = 'files';
  readonly id = collectionIds.files;
  readonly table = 'files' as const;
  readonly schema = filesSchema;
  readonly relations = { chat: { target: 'chats' }, uploaded_by: { target: 'users' } };

  constructor(private readonly context: ServiceContext) {}

  viewCondition(auth: RequestAuth) {
    return auth.user === undefined ? never : chatHasParticipant('files.chat', auth.user.id);
  }

  async serialize(rows: readonly unknown[], _auth: RequestAuth): Promise<RecordJson[]> {
    return (rows as FileRow[]).map((row) => ({
      id: row.id,
      collectionId: this.id,
      collectionName: this.name,
      chat: row.chat,
      uploaded_by: row.uploaded_by ?? '',
      file: row.file,
      description: row.description,
      created: row.created,
      updated: row.updated,
    }));
  }

  async create(_auth: RequestAuth): Promise<never> {
    throw recordErrors.createFailed();
  }

  async update(_auth: RequestAuth, _id: string): Promise<void> {
    throw recordErrors.notFound();
  }

  /** Spec §6: users delete only files they uploaded; anything else is a 404. */
  async delete(auth: RequestAuth, id: string): Promise<void> {
    const file = await this.context.store.files.findById(id);
    if (auth.user === undefined || file === undefined || file.uploaded_by !== auth.user.id) throw recordErrors.notFound();
    if (!(await this.context.store.chats.isParticipant(file.chat, auth.user.id))) throw recordErrors.notFound();
    await this.context.store.files.delete(id);
  }
}
