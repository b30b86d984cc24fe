import { notificationRefusals, notifyLevels, type ChatActivityFrame, type ChatReadState, type ReadStateFrame } from '@confab/client/protocol';
import { extractMentions, notificationPreviewOf } from '@confab/client/rules';
import { ConfabServerError } from '../errors';
import { userChannel, type UserFrameEvent } from '../realtime/channels';
import { formatTimestamp } from '../store/ids';
import type { MessageRow } from '../store/repositories/messages';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import { recordErrors } from './recordErrors';

/** The refusals of POST /api/chats/{id}/read and /mute, as PocketBase-style field errors. */
export const readStateRefusals = {
  seq: { message: 'Failed to mark the chat read.', field: 'seq', text: 'Must be a whole number of 0 or more.' },
  muted: { message: 'Failed to change the chat.', field: 'muted', text: 'Must be true or false.' },
} as const;

function refused(refusal: (typeof readStateRefusals)[keyof typeof readStateRefusals] | typeof notificationRefusals.level): ConfabServerError {
  return new ConfabServerError('badRequest', refusal.message, { [refusal.field]: { code: 'validation_invalid_value', message: refusal.text } });
}

const isPerson = (type: string) => !(agentTypes as readonly string[]).includes(type);

/**
 * Unread state (docs/CONTRACTS.md, Unread state): each person's read position per chat, their
 * mutes, and the live frames that keep every session's chat list current. The positions and
 * counts are the store's (store/repositories/reads.ts); here are who may move them and who is told.
 */
export class ReadsService {
  constructor(private readonly context: ServiceContext) {}

  /** Moves the person's position forward to `seq` (capped at the newest message) and tells all their sessions. */
  async markRead(user: Pick<UserRow, 'id'>, chatId: string, seq: unknown): Promise<ChatReadState> {
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw refused(readStateRefusals.seq);
    await this.requireParticipant(user.id, chatId);
    await this.context.store.reads.markRead(chatId, user.id, seq, this.now());
    return this.announce(user.id, chatId);
  }

  async setMuted(user: Pick<UserRow, 'id'>, chatId: string, muted: unknown): Promise<ChatReadState> {
    if (typeof muted !== 'boolean') throw refused(readStateRefusals.muted);
    await this.requireParticipant(user.id, chatId);
    await this.context.store.reads.setMuted(chatId, user.id, muted, this.now());
    return this.announce(user.id, chatId);
  }

  /** The person's notification level of the chat (docs/CONTRACTS.md, Notifications). */
  async setNotifyLevel(user: Pick<UserRow, 'id'>, chatId: string, level: unknown): Promise<ChatReadState> {
    if (typeof level !== 'string' || !(notifyLevels as readonly string[]).includes(level)) throw refused(notificationRefusals.level);
    await this.requireParticipant(user.id, chatId);
    await this.context.store.reads.setNotifyAll(chatId, user.id, level === 'all', this.now());
    return this.announce(user.id, chatId);
  }

  /**
   * After a message is stored (its author's position already moved onto it, in the message's
   * transaction: `authorHasRead` of MessagesRepository.insert): the people it mentions, and
   * the person it replies to (`repliedToId`, the author of the message answered), are noted; every
   * other participant's sessions get chat_activity (counts and order of their list), the author's
   * get read_state. Runs after the send is answered; a failure here loses no message.
   */
  async posted(row: MessageRow, author: Pick<UserRow, 'id' | 'name' | 'username'>, content: string, repliedToId?: string): Promise<void> {
    const chatId = row.chat;
    const seq = Number(row.seq);
    const participants = await this.context.store.chats.participantsToTell(chatId);
    const named = new Set(extractMentions(content));
    const mentioned = participants.filter(
      (person) => person.user_id !== author.id && isPerson(person.type) && (named.has(person.username.toLowerCase()) || person.user_id === repliedToId),
    );
    await this.context.store.reads.addMentions(chatId, seq, row.created, mentioned.map((person) => person.user_id));
    const mentionedIds = new Set(mentioned.map((person) => person.user_id));
    const recipients = participants.filter((person) => person.user_id !== author.id && isPerson(person.type));
    const base: ChatActivityFrame = { type: 'chat_activity', chat_id: chatId, seq, author_id: author.id, updated: row.created, mentions_you: false };
    // What a notification shows comes only to those it notifies (docs/CONTRACTS.md, Notifications),
    // made once and only when someone is notified: the preview renders the markdown.
    let shown: Pick<ChatActivityFrame, 'message_id' | 'author_name' | 'preview'> | undefined;
    const shownOnce = () => (shown ??= { message_id: row.id, author_name: author.name === '' ? author.username : author.name, preview: notificationPreviewOf(content) });
    const sends = recipients.map((person) => {
      const mentionsYou = mentionedIds.has(person.user_id);
      const notify = mentionsYou || (person.notifyAll && !person.muted);
      const frame: ChatActivityFrame = notify ? { ...base, mentions_you: mentionsYou, notify: true, ...shownOnce() } : { ...base, mentions_you: mentionsYou };
      return this.context.bus.publish(userChannel(person.user_id), { kind: 'frame', frame: JSON.stringify(frame) } satisfies UserFrameEvent);
    });
    const failures = (await Promise.allSettled([...sends, this.announce(author.id, chatId)])).filter((result) => result.status === 'rejected');
    if (failures.length > 0) this.context.logger.error({ chatId, failures: failures.length }, 'unread state publish failed');
  }

  /**
   * After a system line is stored: it moves the position of everyone who had read up to it (it
   * badges nobody who was caught up) and each person's sessions get their read_state, whose counts
   * already hold it, instead of a chat_activity that would count it.
   */
  async systemLineStored(row: MessageRow): Promise<void> {
    const chatId = row.chat;
    await this.context.store.reads.advanceCaughtUp(chatId, Number(row.seq), row.created);
    const participants = await this.context.store.chats.participantsWithNames(chatId);
    const sends = participants.filter((person) => isPerson(person.type)).map((person) => this.announce(person.user_id, chatId));
    const failures = (await Promise.allSettled(sends)).filter((result) => result.status === 'rejected');
    if (failures.length > 0) this.context.logger.error({ chatId, failures: failures.length }, 'unread state publish failed');
  }

  /** The person's state now, sent to every session of theirs as read_state, and answered. */
  /** 404 unless the person takes part in the chat, as the chat's own view rule answers. */
  private async requireParticipant(userId: string, chatId: string): Promise<void> {
    if (!(await this.context.store.chats.isParticipant(chatId, userId))) throw recordErrors.notFound();
  }

  /** Called once the caller is known to take part (checked before a change, or the author of a stored message). */
  private async announce(userId: string, chatId: string): Promise<ChatReadState> {
    const counted = await this.context.store.reads.stateOf(userId, chatId);
    if (counted === undefined) throw recordErrors.notFound();
    const state: ChatReadState = { chat_id: chatId, ...counted };
    const frame: ReadStateFrame = { type: 'read_state', ...state };
    try {
      await this.context.bus.publish(userChannel(userId), { kind: 'frame', frame: JSON.stringify(frame) } satisfies UserFrameEvent);
    } catch (error) {
      this.context.logger.error({ error: String(error), chatId }, 'read state publish failed');
    }
    return state;
  }

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }
}
