import { fileExtension, imageMimeType, mimeFromExtension } from '@confab/client/rules';
import { formatTimestamp, newRecordId } from '../../store/ids';
import type { ChatEvents } from '../chatEvents';
import type { ServiceContext } from '../context';
import { fileKey } from './fileStore';
import type { StagedUpload } from './storage';
import { storedFileName } from './uploadRules';

/**
 * Stores a checked upload as a file of the chat: puts its bytes in the file store under a
 * generated name, writes the record (removing the bytes if that fails) and tells the chat's open
 * files panels. The one way a file enters a chat, whether a person uploaded it or a mail carried
 * it. When the store is down this throws its 503 before any record exists.
 */
export async function saveChatFile(
  context: ServiceContext,
  chatEvents: ChatEvents,
  input: { chatId: string; uploaderId: string; upload: StagedUpload; originalName: string; description: string },
): Promise<string> {
  const { chatId, upload, originalName } = input;
  const id = newRecordId();
  const stored = storedFileName(originalName);
  const files = context.files;
  await files.putFile(fileKey(chatId, id, stored), upload.path, upload.size);
  const now = formatTimestamp(context.config.now());
  try {
    await context.store.files.insert({
      id,
      chat: chatId,
      uploaded_by: input.uploaderId,
      file: stored,
      original_name: originalName,
      // Images only reach here on a server that allows them (config uploadExtensions).
      mime_type: imageMimeType(fileExtension(originalName)) ?? mimeFromExtension(fileExtension(originalName)),
      size: upload.size,
      description: input.description,
      created: now,
      updated: now,
    });
  } catch (error) {
    await files.deletePrefix(`${chatId}/${id}/`).catch(() => undefined);
    throw error;
  }
  await chatEvents.filesChanged(chatId, 'added', id);
  return id;
}
