import { fileExtension, imageMimeType, mimeFromExtension } from '@confab/client/rules';
import { formatTimestamp, newRecordId } from '../../store/ids';
import type { ChatEvents } from '../chatEvents';
import type { ServiceContext } from '../context';
import { removeRecordDirectory, type StagedUpload, storedFilePath } from './storage';
import { storedFileName } from './uploadRules';

/**
 * Stores a checked upload as a file of the chat: moves its bytes under a generated name, writes
 * the record (removing the bytes if that fails) and tells the chat's open files panels. The one
 * way a file enters a chat, whether a person uploaded it or a mail carried it.
 */
export async function saveChatFile(
  context: ServiceContext,
  chatEvents: ChatEvents,
  input: { chatId: string; uploaderId: string; upload: StagedUpload; originalName: string; description: string },
): Promise<string> {
  const { chatId, upload, originalName } = input;
  const id = newRecordId();
  const stored = storedFileName(originalName);
  upload.moveTo(storedFilePath(context.config.dataDir, chatId, id, stored));
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
    removeRecordDirectory(context.config.dataDir, chatId, id);
    throw error;
  }
  await chatEvents.filesChanged(chatId, 'added', id);
  return id;
}
