import { replyLimits, replyToRefusedText, type ReplyPreview, type WireMessage } from '@confab/client/protocol';
import { replyPreviewOf } from '@confab/client/rules';
import type { FieldErrors } from '../errors';
import type { MessageRow, MessageWithAuthor, ReplyOriginal } from '../store/repositories/messages';
import type { ServiceContext } from './context';

/** The longest reply_to accepted: record ids are 15 characters, so anything longer names nothing. */
const replyToMaximum = 100;

/** Where a reply goes: the thread's original, and the message the person answered (its author is the one replied to). */
export interface ReplyTarget {
  /** The first message of the thread: what reply_to stores. */
  originalId: string;
  /** The message named, before a reply to a reply was moved to its thread's original. */
  named: MessageRow;
}

/**
 * Replies (docs/CONTRACTS.md, Replies): which message a reply may name, and what it quotes of it.
 * Threads are one level deep: a reply to a reply joins the thread of that reply's original.
 */
export class Replies {
  constructor(
    private readonly context: ServiceContext,
    private readonly decrypt: (row: Pick<MessageRow, 'id' | 'content_encrypted'>) => string,
  ) {}

  /**
   * Checks a reply_to given with a new message of `chatId` (after the author's right to post there
   * was checked): a standing message of the same chat, else a field error under `reply_to` with one
   * text whatever the reason. Undefined or '' is no reply.
   */
  async target(errors: FieldErrors, chatId: string, raw: unknown): Promise<ReplyTarget | undefined> {
    if (raw === undefined || raw === null || raw === '') return undefined;
    const refuse = () => {
      errors['reply_to'] = { code: 'validation_invalid_value', message: replyToRefusedText };
      return undefined;
    };
    if (typeof raw !== 'string' || raw.length > replyToMaximum) return refuse();
    const named = await this.context.store.messages.findById(raw.trim());
    if (named === undefined || named.chat !== chatId || named.deleted_at !== null) return refuse();
    return { originalId: named.reply_to ?? named.id, named };
  }

  /** The previews of the originals the rows reply to, by original id, in one query. */
  async previewsFor(rows: readonly Pick<MessageRow, 'reply_to'>[]): Promise<Map<string, ReplyPreview>> {
    const ids = rows.flatMap((row) => (row.reply_to === null ? [] : [row.reply_to]));
    const originals = await this.context.store.messages.replyOriginals(ids);
    return new Map([...originals].map(([id, original]) => [id, this.previewOf(original)]));
  }

  previewOf(original: ReplyOriginal): ReplyPreview {
    return replyPreviewOf({
      message_id: original.id,
      author_name: original.author_name === '' ? original.author_username : original.author_name,
      content: original.deleted_at === null ? this.decrypt(original) : '',
      deleted: original.deleted_at !== null,
    });
  }

  /** The thread a reply belongs to, for an agent's mention: the original, then the latest replies. */
  async threadOf(row: Pick<MessageRow, 'chat' | 'reply_to'>): Promise<MessageWithAuthor[] | undefined> {
    if (row.reply_to === null) return undefined;
    return this.context.store.messages.thread(row.chat, row.reply_to, replyLimits.threadContextMessages);
  }
}

/** The wire fields of replies on a message (docs/CONTRACTS.md, Replies): reply_to with its preview, and reply_count once above 0. */
export function replyFields(row: Pick<MessageRow, 'reply_to' | 'reply_count'>, preview: ReplyPreview | undefined): Pick<WireMessage, 'reply_to' | 'reply_to_preview' | 'reply_count'> {
  const fields: Pick<WireMessage, 'reply_to' | 'reply_to_preview' | 'reply_count'> = {};
  if (row.reply_to !== null) {
    fields.reply_to = row.reply_to;
    if (preview !== undefined) fields.reply_to_preview = preview;
  }
  if (Number(row.reply_count) > 0) fields.reply_count = Number(row.reply_count);
  return fields;
}
