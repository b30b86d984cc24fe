import { fieldErrors, type FieldErrors } from '../../errors';
import { filesSchema } from '../../store/filterAllowLists';
import { chatHasParticipant, never } from '../../store/conditions';
import type { FileRow } from '../../store/repositories/files';
import type { Announcements } from '../announcements';
import type { ChatEvents } from '../chatEvents';
import type { RequestAuth, ServiceContext } from '../context';
import { saveChatFile } from '../files/saveChatFile';
import { StagedUpload } from '../files/storage';
import { cleanOriginalName, descriptionMaximum, uploadProblems } from '../files/uploadRules';
import { readString, type Body } from '../input';
import { recordErrors } from '../recordErrors';
import { collectionIds, type CreatedRecord, type RecordCollection, type RecordJson } from './types';

/**
 * The files collection (docs/PRODUCT.md §3 File record). Uploads arrive as a StagedUpload from the
 * streaming multipart parser, which has already checked the extension and the content and charged
 * the bytes to the uploader's allowance; participants of a chat see and add its files, only the
 * uploader deletes one.
 */
export class FilesCollection implements RecordCollection {
  readonly name = 'files';
  readonly id = collectionIds.files;
  readonly table = 'files' as const;
  readonly schema = filesSchema;
  readonly relations = { chat: { target: 'chats' }, uploaded_by: { target: 'users' } };

  constructor(
    private readonly context: ServiceContext,
    private readonly chatEvents: ChatEvents,
    private readonly announcements: Announcements,
  ) {}

  viewCondition(auth: RequestAuth) {
    return auth.user === undefined ? never : chatHasParticipant('files.chat', auth.user.id);
  }

  /** A list filtered to one chat the caller is not in answers 404, as download and delete do. */
  async checkList(auth: RequestAuth, filteredChatIds: readonly string[]): Promise<void> {
    for (const chatId of filteredChatIds) {
      if (auth.user === undefined || !(await this.context.store.chats.isParticipant(chatId, auth.user.id))) {
        throw recordErrors.notFound();
      }
    }
  }

  async serialize(rows: readonly unknown[], _auth: RequestAuth): Promise<RecordJson[]> {
    return (rows as FileRow[]).map((row) => ({
      id: row.id,
      collectionId: this.id,
      collectionName: this.name,
      chat: row.chat,
      uploaded_by: row.uploaded_by ?? '',
      file: row.file,
      original_name: row.original_name,
      size: Number(row.size),
      mime_type: row.mime_type,
      description: row.description,
      created: row.created,
      updated: row.updated,
    }));
  }

  async create(auth: RequestAuth, body: Body): Promise<CreatedRecord> {
    const user = auth.user;
    const chatId = readString(body, 'chat') ?? '';
    if (user === undefined || chatId === '' || !(await this.context.store.chats.isParticipant(chatId, user.id))) {
      throw recordErrors.createFailed(chatId === '' ? { chat: fieldErrors.required() } : {});
    }
    const upload = body['file'];
    const errors: FieldErrors = {};
    const description = (readString(body, 'description') ?? '').trim();
    if (description.length > descriptionMaximum) errors['description'] = fieldErrors.maxText(descriptionMaximum);
    if (!(upload instanceof StagedUpload)) {
      errors['file'] = fieldErrors.required();
      throw recordErrors.createFailed(errors);
    }
    const originalName = cleanOriginalName(upload.clientName);
    // Extension and content were checked while the file streamed in; only emptiness needs the end.
    if (upload.size === 0) errors['file'] = uploadProblems.empty();
    if (Object.keys(errors).length > 0) throw recordErrors.createFailed(errors);

    const id = await saveChatFile(this.context, this.chatEvents, { chatId, uploaderId: user.id, upload, originalName, description });
    // The upload announces itself in the chat (docs/CONTRACTS.md, File messages and system lines).
    const stored = await this.context.store.files.findById(id);
    if (stored !== undefined) await this.announcements.fileShared(user, stored);
    return { id };
  }

  async update(_auth: RequestAuth, _id: string): Promise<void> {
    throw recordErrors.notFound();
  }

  /**
   * docs/PRODUCT.md §6: users delete only files they uploaded; anything else is a 404. The bytes
   * go first: when the store is down the answer is its 503 and the record stays, to be deleted again.
   */
  async delete(auth: RequestAuth, id: string): Promise<void> {
    const file = await this.context.store.files.findById(id);
    if (auth.user === undefined || file === undefined || file.uploaded_by !== auth.user.id) throw recordErrors.notFound();
    if (!(await this.context.store.chats.isParticipant(file.chat, auth.user.id))) throw recordErrors.notFound();
    await this.context.files.deletePrefix(`${file.chat}/${file.id}/`);
    await this.context.store.files.delete(id);
    await this.chatEvents.filesChanged(file.chat, 'deleted', file.id);
    await this.announcements.fileDeleted(file.id);
  }
}
