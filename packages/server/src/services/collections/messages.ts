import type { FieldErrors } from '../../errors';
import { messagesSchema } from '../../store/filterAllowLists';
import { chatHasParticipant, never } from '../../store/conditions';
import type { MessageRow } from '../../store/repositories/messages';
import type { RequestAuth, ServiceContext } from '../context';
import { announcementDetails, type MessagingService } from '../messaging';
import type { ReactionsService } from '../reactions';
import type { ReactionSummary } from '@confab/client/protocol';
import { hasField, readString, type Body } from '../input';
import { recordErrors, throwIfErrors } from '../recordErrors';
import { collectionIds, type RecordCollection, type RecordJson } from './types';

/** The client sends plaintext as `encryptedContent` (the record API's naming, docs/PRODUCT.md §7) or `content`. */
function contentField(body: Body): 'encryptedContent' | 'content' {
  return hasField(body, 'encryptedContent') ? 'encryptedContent' : 'content';
}

/**
 * The one message_type a person may name. The others say where a message came from (`email`: a
 * received mail, which @email lists), and only the server sets those (docs/SECURITY.md Z9).
 * Clients send 'regular' on create, or nothing.
 */
const personMessageType = 'regular';

function personMessageTypeProblem(body: Body): FieldErrors {
  const given = readString(body, 'message_type');
  if (given === undefined || given === '' || given === personMessageType) return {};
  return { message_type: { code: 'validation_invalid_value', message: "Only the server sets message_type; messages people post are 'regular'." } };
}

/** Rules of the messages collection: participants read and write; the author is always the caller. */
export class MessagesCollection implements RecordCollection {
  readonly name = 'messages';
  readonly id = collectionIds.messages;
  readonly table = 'messages' as const;
  readonly schema = messagesSchema;
  readonly relations = { chat: { target: 'chats' }, author: { target: 'users' } };

  constructor(
    private readonly context: ServiceContext,
    private readonly messaging: MessagingService,
    private readonly reactions: ReactionsService,
  ) {}

  viewCondition(auth: RequestAuth) {
    return auth.user === undefined ? never : chatHasParticipant('messages.chat', auth.user.id);
  }

  async serialize(rows: readonly unknown[], _auth: RequestAuth, wanted?: (field: string) => boolean): Promise<RecordJson[]> {
    const messages = rows as MessageRow[];
    // One query each for the whole page: reactions (skipped when `fields` leaves them out, and for
    // messages never reacted to, whose reactions_version is still 0) and every original the page's
    // replies quote (docs/CONTRACTS.md, Reactions and Replies).
    const reacted = messages.filter((row) => Number(row.reactions_version) > 0).map((row) => row.id);
    const [reactions, previews] = await Promise.all([
      (wanted === undefined || wanted('reactions')) && reacted.length > 0 ? this.reactions.summaries(reacted) : new Map<string, ReactionSummary[]>(),
      this.messaging.replies.previewsFor(messages),
    ]);
    return messages.map((row) => ({
      id: row.id,
      collectionId: this.id,
      collectionName: this.name,
      chat: row.chat,
      author: row.author,
      content: row.deleted_at === null ? this.messaging.decrypt(row) : '',
      message_type: row.message_type,
      client_id: row.client_id ?? '',
      seq: Number(row.seq),
      edited_at: row.edited_at ?? '',
      deleted_at: row.deleted_at ?? '',
      reactions: row.deleted_at === null ? (reactions.get(row.id) ?? []) : [],
      reactions_version: Number(row.reactions_version),
      reply_to: row.reply_to ?? '',
      ...(row.reply_to === null || !previews.has(row.reply_to) ? {} : { reply_to_preview: previews.get(row.reply_to) }),
      reply_count: Number(row.reply_count),
      // File messages and system lines (docs/CONTRACTS.md): null on every other message.
      file: (row.deleted_at === null ? announcementDetails(row).file : undefined) ?? null,
      system: (row.deleted_at === null ? announcementDetails(row).system : undefined) ?? null,
      ...(row.deleted_at === null && announcementDetails(row).cut_off === true ? { cut_off: true } : {}),
      created: row.created,
      updated: row.updated,
    }));
  }

  /** Posting is the messaging service's (shared with the WebSocket gateway). */
  async create(auth: RequestAuth, body: Body) {
    if (auth.user === undefined) throw recordErrors.createFailed();
    const field = contentField(body);
    throwIfErrors(personMessageTypeProblem(body), recordErrors.createFailed);
    const posted = await this.messaging.post(auth.user, {
      chatId: readString(body, 'chat') ?? '',
      content: readString(body, field),
      contentField: field,
      clientId: readString(body, 'client_id'),
      replyTo: body['reply_to'],
    });
    return { id: posted.row.id, row: posted.row };
  }

  /** Only the author edits the content of their message (services/messaging.ts `edit`). */
  async update(auth: RequestAuth, id: string, body: Body): Promise<void> {
    if (auth.user === undefined) throw recordErrors.notFound();
    if (!hasField(body, 'content') && !hasField(body, 'encryptedContent')) {
      // Nothing to change: still only the author's own, standing message answers.
      const message = await this.context.store.messages.findById(id);
      if (message === undefined || message.author !== auth.user.id || message.deleted_at !== null) throw recordErrors.notFound();
      return;
    }
    const field = contentField(body);
    await this.messaging.edit(auth.user, id, readString(body, field), field);
  }

  /** The author or an admin of the chat deletes a message; its row stays, emptied (services/messaging.ts `remove`). */
  async delete(auth: RequestAuth, id: string): Promise<void> {
    if (auth.user === undefined) throw recordErrors.notFound();
    await this.messaging.remove(auth.user, id);
  }
}
