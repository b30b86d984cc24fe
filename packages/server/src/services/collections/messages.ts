import { fieldErrors, type FieldErrors } from '../../errors';
import { messagesSchema } from '../../store/collections';
import { chatHasParticipant, never } from '../../store/conditions';
import { formatTimestamp, newRecordId } from '../../store/ids';
import type { MessageRow } from '../../store/repositories/messages';
import type { RequestAuth, ServiceContext } from '../context';
import { hasField, readString, type Body } from '../input';
import { recordErrors, throwIfErrors } from '../recordErrors';
import { collectionIds, type RecordCollection, type RecordJson } from './types';

/** The documented maximum length of a message body, in characters. */
export const messageContentMaximum = 10_000;
export const messageTypes = ['regular', 'email', 'search', 'others'] as const;
const clientIdMaximum = 100;

/** The client sends plaintext as `encryptedContent` (the spec's naming) or `content`. */
function contentField(body: Body): 'encryptedContent' | 'content' {
  return hasField(body, 'encryptedContent') ? 'encryptedContent' : 'content';
}

function validateContent(errors: FieldErrors, body: Body): string {
  const field = contentField(body);
  const content = (readString(body, field) ?? '').trim();
  if (content === '') errors[field] = fieldErrors.required();
  else if (content.length > messageContentMaximum) errors[field] = fieldErrors.maxText(messageContentMaximum);
  return content;
}

/** Rules of the messages collection: participants read and write; the author is always the caller. */
export class MessagesCollection implements RecordCollection {
  readonly name = 'messages';
  readonly id = collectionIds.messages;
  readonly table = 'messages' as const;
  readonly schema = messagesSchema;
  readonly relations = { chat: { target: 'chats' }, author: { target: 'users' } };

  constructor(private readonly context: ServiceContext) {}

  viewCondition(auth: RequestAuth) {
    return auth.user === undefined ? never : chatHasParticipant('messages.chat', auth.user.id);
  }

  async serialize(rows: readonly unknown[], _auth: RequestAuth): Promise<RecordJson[]> {
    return (rows as MessageRow[]).map((row) => ({
      id: row.id,
      collectionId: this.id,
      collectionName: this.name,
      chat: row.chat,
      author: row.author,
      content: this.decrypt(row),
      message_type: row.message_type,
      client_id: row.client_id ?? '',
      created: row.created,
      updated: row.updated,
    }));
  }

  private decrypt(row: MessageRow): string {
    try {
      return this.context.messageCipher.decrypt(row.content_encrypted);
    } catch {
      this.context.logger.warn({ messageId: row.id }, 'message content could not be decrypted');
      return '';
    }
  }

  async create(auth: RequestAuth, body: Body) {
    const chatId = readString(body, 'chat') ?? '';
    if (auth.user === undefined || chatId === '' || !(await this.context.store.chats.isParticipant(chatId, auth.user.id))) {
      throw recordErrors.createFailed(chatId === '' ? { chat: fieldErrors.required() } : {});
    }
    const errors: FieldErrors = {};
    const content = validateContent(errors, body);
    const messageType = readString(body, 'message_type') ?? 'regular';
    if (!(messageTypes as readonly string[]).includes(messageType)) errors['message_type'] = fieldErrors.invalidValue();
    const clientId = readString(body, 'client_id')?.trim() || null;
    if (clientId !== null && clientId.length > clientIdMaximum) errors['client_id'] = fieldErrors.maxText(clientIdMaximum);
    throwIfErrors(errors, recordErrors.createFailed);
    const now = formatTimestamp(this.context.config.now());
    const stored = await this.context.store.messages.insert({
      id: newRecordId(),
      chat: chatId,
      author: auth.user.id,
      content_encrypted: this.context.messageCipher.encrypt(content),
      message_type: messageType,
      client_id: clientId,
      created: now,
      updated: now,
    });
    return { id: stored.id };
  }

  /** Only the author edits the content of their message. */
  async update(auth: RequestAuth, id: string, body: Body): Promise<void> {
    const message = await this.context.store.messages.findById(id);
    if (auth.user === undefined || message === undefined || message.author !== auth.user.id) throw recordErrors.notFound();
    if (!(await this.context.store.chats.isParticipant(message.chat, auth.user.id))) throw recordErrors.notFound();
    if (!hasField(body, 'content') && !hasField(body, 'encryptedContent')) return;
    const errors: FieldErrors = {};
    const content = validateContent(errors, body);
    throwIfErrors(errors, recordErrors.updateFailed);
    const now = formatTimestamp(this.context.config.now());
    await this.context.store.messages.updateContent(id, this.context.messageCipher.encrypt(content), now);
  }

  async delete(auth: RequestAuth, id: string): Promise<void> {
    const message = await this.context.store.messages.findById(id);
    if (auth.user === undefined || message === undefined || message.author !== auth.user.id) throw recordErrors.notFound();
    await this.context.store.messages.delete(id);
  }
}
