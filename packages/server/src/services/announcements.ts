import type { MessageFile, MessageUpdatedFrame, SystemLine, SystemLinePerson } from '@confab/client/protocol';
import { chatChannel, type ChatFrameEvent, type MessageEvent } from '../realtime/channels';
import { formatTimestamp, newRecordId } from '../store/ids';
import type { FileRow } from '../store/repositories/files';
import type { MessageRow } from '../store/repositories/messages';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import type { MessagingService } from './messaging';
import type { ReadsService } from './reads';
import { systemLineText } from '@confab/client/rules';

type Person = Pick<UserRow, 'id' | 'name' | 'username' | 'type'>;

const isAgent = (person: Pick<UserRow, 'type'>) => (agentTypes as readonly string[]).includes(person.type);

/** The name a person goes by in a system line, as they are named now. */
export function linePerson(person: Pick<UserRow, 'id' | 'name' | 'username'>): SystemLinePerson {
  return { id: person.id, name: person.name.trim() === '' ? person.username : person.name };
}

/**
 * Messages the server writes itself (docs/CONTRACTS.md, File messages and system lines): a file
 * message when a person uploads a file, and system lines when a chat's membership or name
 * changes. Stored with a seq like any message (so catch-up by seq finds them) and sent live as
 * new_message, but never handed to the agents' router: nothing in them is anyone's request.
 * A failure here is logged and never undoes the change it announces.
 */
export class Announcements {
  constructor(
    private readonly context: ServiceContext,
    private readonly messaging: MessagingService,
    private readonly reads: ReadsService,
  ) {}

  /**
   * A person uploaded a file: a card everyone in the chat sees live, counted as unread like a
   * message. Files agents make and mail attachments (uploaded by `email`) stay quiet: the mail's
   * own message lists its attachments, and an agent's reply says what it made.
   */
  async fileShared(uploader: Person, file: Pick<FileRow, 'id' | 'chat' | 'original_name' | 'file' | 'mime_type' | 'size'>): Promise<void> {
    if (isAgent(uploader)) return;
    const name = file.original_name || file.file;
    const details: MessageFile = { file_id: file.id, name, file: file.file, type: file.mime_type, size: Number(file.size) };
    const content = `shared ${name}`;
    await this.guarded(file.chat, async () => {
      const row = await this.store(file.chat, uploader, { messageType: 'file', content, fileId: file.id, details: JSON.stringify(details) }, { authorHasRead: true });
      await this.reads.posted(row, uploader, content);
    });
  }

  /** The file was deleted: its card says so, live (message_updated) and to clients catching up by `updated`. */
  async fileDeleted(fileId: string): Promise<void> {
    const cards = await this.context.store.messages.findByFile(fileId);
    for (const card of cards) {
      await this.guarded(card.chat, async () => {
        const details = { ...(JSON.parse(card.details ?? '{}') as MessageFile), deleted: true as const };
        const updated = await this.context.store.messages.setDetails(card.id, JSON.stringify(details), this.now());
        const author = await this.context.store.users.findById(card.author);
        if (updated === undefined || author === undefined) return;
        const frame: MessageUpdatedFrame = { type: 'message_updated', message: this.messaging.toWire(updated, author) };
        await this.context.bus.publish(chatChannel(card.chat), { kind: 'chat_frame', chat_id: card.chat, frame: JSON.stringify(frame) } satisfies ChatFrameEvent);
      });
    }
  }

  /**
   * A membership or settings change of the chat, told by the person who made it. Agents author
   * none: when one acts (it cannot change membership today), nothing is written.
   */
  async systemLine(chatId: string, actor: Person, change: Omit<SystemLine, 'actor'>): Promise<void> {
    if (isAgent(actor)) return;
    const line: SystemLine = { ...change, actor: linePerson(actor) };
    await this.guarded(chatId, async () => {
      const { rateLimits } = this.context;
      if (!(await rateLimits.take(`system-lines:chat:${chatId}`, rateLimits.limits.systemLinesPerChat))) {
        this.context.logger.info({ chatId, kind: line.kind }, 'system line left out: the chat changes faster than its lines may be written');
        return;
      }
      const row = await this.store(chatId, actor, { messageType: 'system', content: systemLineText(line), fileId: null, details: JSON.stringify(line) });
      await this.reads.systemLineStored(row);
    });
  }

  /** `authorHasRead`: a file message is the uploader's, read by them as they post it; a system line moves positions its own way. */
  private async store(chatId: string, author: Person, input: { messageType: 'file' | 'system'; content: string; fileId: string | null; details: string }, { authorHasRead = false } = {}): Promise<MessageRow> {
    const now = this.now();
    const { row } = await this.context.store.messages.insert({
      id: newRecordId(),
      chat: chatId,
      author: author.id,
      content_encrypted: this.context.messageCipher.encrypt(input.content),
      message_type: input.messageType,
      client_id: null,
      file: input.fileId,
      details: input.details,
      created: now,
      updated: now,
    }, { authorHasRead });
    const event: MessageEvent = { kind: 'message', chat_id: chatId, seq: Number(row.seq), frame: this.messaging.frameOf(row, author), stored_at_ms: Date.now() };
    await this.context.bus.publish(chatChannel(chatId), event);
    return row;
  }

  private async guarded(chatId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.context.logger.error({ error: String(error), chatId }, 'announcement failed');
    }
  }

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }
}
