import { ConfabServerError, fieldErrors, type FieldErrors } from '../errors';
import { chatChannel, type ChatFrameEvent, type MessageEvent } from '../realtime/channels';
import { formatTimestamp, newRecordId } from '../store/ids';
import type { MessageRow, MessageWithAuthor } from '../store/repositories/messages';
import type { UserRow } from '../store/repositories/users';
import { parsePermissions } from './agents';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import { tooManyRequests } from './limits/rateLimits';
import { agentKindOf } from '../operations/metrics';
import { recordErrors, throwIfErrors } from './recordErrors';
import { Replies, replyFields, type ReplyTarget } from './replies';
import { agentLimits, maxMessageLength, type ReactionSummary, type MessageDeletedFrame, type MessageFile, type MessageUpdatedFrame, type NewMessageFrame, type ReplyPreview, type SystemLine, type WireMessage } from '@confab/client/protocol';

/** The longest message content after trimming, in characters (the protocol's maxMessageLength). */
export const messageContentMaximum = maxMessageLength;
export const messageTypes = ['regular', 'email', 'search', 'others', 'file', 'system'] as const;
/** Messages the server writes itself (services/announcements.ts): nobody edits them, and system lines stay. */
const announcementTypes: readonly string[] = ['file', 'system'];
export const clientIdMaximum = 100;
export const messageRateLimitedText = 'You are sending messages too fast. Please wait a moment and try again.';

/** docs/PRODUCT.md §3 normalised message plus `seq` and `is_agent`: the wire type shared with the client. */
export type { WireMessage };

export interface PostInput {
  /** An agent's reply names the mention it answers (the router's hop count). */
  mentionId?: string | undefined;
  /** The streamed reply this message completes: carried as `stream_id` in its new_message. */
  streamId?: string | undefined;
  /** The caller already checked that the author may post here (a stream checked it when it began). */
  grantChecked?: boolean;
  /** An agent's streamed reply that broke off: stored and sent marked `cut_off`. */
  cutOff?: boolean;
  chatId: string;
  content: string | undefined;
  /** Which body field carried the content, for the field error. */
  contentField?: string;
  /** Set by the server only (the mail path's 'email'); people's and agents' messages are 'regular'. */
  messageType?: (typeof messageTypes)[number] | undefined;
  clientId?: string | undefined;
  /** Makes it a reply: a message of the same chat (docs/CONTRACTS.md, Replies); anything else is refused under `reply_to`. */
  replyTo?: unknown;
}

/** What a wire message carries beside its row: reactions read with it, and a reply's quote of its original. */
export interface WireExtras {
  reactions?: ReactionSummary[] | undefined;
  preview?: ReplyPreview | undefined;
  /** The row's plaintext when the caller holds it (it just encrypted it), so it is not decrypted again. */
  content?: string | undefined;
}

/** Told of every newly stored message, after its commit, on the instance that stored it (the agents' router). */
export type PostedListener = (posted: { row: MessageRow; author: UserRow; mentionId: string | undefined; content: string; reply: ReplyTarget | undefined }) => Promise<void>;

export interface PostedMessage {
  row: MessageRow;
  /** The ready `new_message` frame. */
  frame: string;
  /** False for a retried client_id: nothing new was stored or broadcast. */
  created: boolean;
}

/** Trims and checks a message body; the one content rule for the record API and the socket. */
export function validateContent(errors: FieldErrors, field: string, raw: string | undefined): string {
  const content = (raw ?? '').trim();
  if (content === '') errors[field] = fieldErrors.required();
  else if (content.length > messageContentMaximum) errors[field] = fieldErrors.maxText(messageContentMaximum);
  return content;
}

/**
 * Posting and reading messages, shared by the record API and the WebSocket gateway so encryption,
 * validation, idempotency and broadcast happen in one place.
 */
export class MessagingService {
  /** Which message a reply may name, and what it quotes of it. */
  readonly replies: Replies;

  constructor(private readonly context: ServiceContext) {
    this.replies = new Replies(context, (row) => this.decrypt(row));
  }

  decrypt(row: Pick<MessageRow, 'id' | 'content_encrypted'>): string {
    try {
      return this.context.messageCipher.decrypt(row.content_encrypted);
    } catch {
      this.context.logger.warn({ messageId: row.id }, 'message content could not be decrypted');
      return '';
    }
  }

  /**
   * `extras.reactions`: its summary when the caller read it (a join's replay); absent or empty adds none.
   * `extras.preview`: what a reply quotes of its original (Replies.previewsFor); without it a reply carries reply_to only.
   */
  toWire(row: MessageRow, author: Pick<UserRow, 'name' | 'username' | 'type'>, extras: WireExtras = {}): WireMessage {
    const message: WireMessage = {
      message_id: row.id,
      chat_id: row.chat,
      author_id: row.author,
      author_name: author.name === '' ? author.username : author.name,
      author_username: author.username,
      content: row.deleted_at === null ? (extras.content ?? this.decrypt(row)) : '',
      created_at: row.created,
      message_type: row.message_type,
      seq: Number(row.seq),
      is_agent: (agentTypes as readonly string[]).includes(author.type),
    };
    if (row.edited_at !== null) message.edited_at = row.edited_at;
    if (row.deleted_at !== null) message.deleted_at = row.deleted_at;
    else if (row.details !== null) Object.assign(message, announcementDetails(row));
    if (row.deleted_at === null && extras.reactions !== undefined && extras.reactions.length > 0) message.reactions = extras.reactions;
    if (Number(row.reactions_version) > 0) message.reactions_version = Number(row.reactions_version);
    return Object.assign(message, replyFields(row, extras.preview));
  }

  frameOf(row: MessageRow, author: Pick<UserRow, 'name' | 'username' | 'type'>, streamId?: string, extras: WireExtras = {}): string {
    const frame: NewMessageFrame = { type: 'new_message', message: this.toWire(row, author, extras) };
    if (row.client_id !== null && row.client_id !== '') frame.client_id = row.client_id;
    if (streamId !== undefined) frame.stream_id = streamId;
    return JSON.stringify(frame);
  }

  /** Whether the user reads the chat's messages live (participants only; agents get mentions instead). */
  async mayRead(chatId: string, userId: string): Promise<boolean> {
    return this.context.store.chats.isParticipant(chatId, userId);
  }

  /** The chat's newest seq (0 for an empty or unknown chat). */
  async lastSeq(chatId: string): Promise<number> {
    return (await this.context.store.chats.lastSeq(chatId)) ?? 0;
  }

  /** Stored messages after `afterSeq` as ready frames, in seq order. */
  async framesAfter(chatId: string, afterSeq: number, limit: number): Promise<{ seq: number; frame: string }[]> {
    const rows = await this.context.store.messages.listAfterSeq(chatId, afterSeq, limit);
    // Replayed as they are now, reactions and reply quotes included (docs/CONTRACTS.md, Reactions and Replies).
    const [reactions, previews] = await Promise.all([
      this.context.store.reactions.summaries(rows.filter((row) => Number(row.reactions_version) > 0).map((row) => row.id)),
      this.replies.previewsFor(rows),
    ]);
    return rows.map((row: MessageWithAuthor) => ({
      seq: row.seq,
      frame: this.frameOf(row, { name: row.author_name, username: row.author_username, type: row.author_type }, undefined, {
        reactions: reactions.get(row.id),
        preview: previews.get(row.reply_to ?? ''),
      }),
    }));
  }

  /**
   * Validates, stores (encrypted, next seq) and publishes on `chat:<id>`. Participants only, at
   * most `messagesPerUserPerSecond` per author across HTTP and every socket (429 past it).
   */
  async post(author: UserRow, input: PostInput): Promise<PostedMessage> {
    const chatId = input.chatId;
    if (chatId === '') throw recordErrors.createFailed({ chat: fieldErrors.required() });
    if (input.grantChecked !== true) {
      await this.requireMayPost(author, chatId);
      if (input.mentionId !== undefined) await this.requireOwnMention(author, chatId, input.mentionId);
    }
    const limits = this.context.rateLimits;
    if (!(await limits.take(`messages:user:${author.id}`, limits.limits.messagesPerUser))) {
      throw tooManyRequests(messageRateLimitedText);
    }
    const errors: FieldErrors = {};
    const content = validateContent(errors, input.contentField ?? 'content', input.content);
    const messageType = input.messageType ?? 'regular';
    if (!(messageTypes as readonly string[]).includes(messageType)) errors['message_type'] = fieldErrors.invalidValue();
    const clientId = input.clientId?.trim() || null;
    if (clientId !== null && clientId.length > clientIdMaximum) errors['client_id'] = fieldErrors.maxText(clientIdMaximum);
    // Only after the right to post here was checked: an outsider learns nothing of a chat's messages.
    const reply = await this.replies.target(errors, chatId, input.replyTo);
    throwIfErrors(errors, recordErrors.createFailed);
    const now = formatTimestamp(this.context.config.now());
    const { row, created } = await this.context.store.messages.insert({
      id: newRecordId(),
      chat: chatId,
      author: author.id,
      content_encrypted: this.context.messageCipher.encrypt(content),
      message_type: messageType,
      client_id: clientId,
      reply_to: reply?.originalId ?? null,
      ...(input.cutOff === true ? { details: JSON.stringify({ cut_off: true }) } : {}),
      created: now,
      updated: now,
    }, { authorHasRead: true });
    const storedAtMs = Date.now();
    if (created) this.countSent(author);
    const previews = await this.replies.previewsFor([row]);
    // A retried client_id answers the stored message, whose content may differ from this one's.
    const frame = this.frameOf(row, author, input.streamId, { preview: previews.get(row.reply_to ?? ''), ...(created ? { content } : {}) });
    // A retried client_id is published again: the instance that stored it may have died between
    // its commit and its publish (docs/OPERATIONS.md, Fault matrix), and then no room anywhere has
    // it. Rooms drop a seq they already delivered, so the second publish costs nothing more.
    const event: MessageEvent = { kind: 'message', chat_id: chatId, seq: Number(row.seq), frame, stored_at_ms: storedAtMs };
    try {
      await this.context.bus.publish(chatChannel(chatId), event);
    } catch (error) {
      // Stored is what counts: joined sockets catch up through after_seq.
      this.context.logger.error({ error: String(error), chatId }, 'message broadcast failed');
    }
    if (created && row.reply_to !== null) await this.announceReplyCount(row.reply_to);
    if (created) {
      for (const listener of this.postedListeners) {
        listener({ row, author, mentionId: input.mentionId, content, reply }).catch((error: unknown) =>
          this.context.logger.error({ error: String(error), chatId }, 'after-post listener failed'),
        );
      }
    }
    return { row, frame, created };
  }

  private countSent(author: UserRow): void {
    const metrics = this.context.metrics;
    const agent = agentKindOf(author.type);
    metrics.messagesSent.inc({ author: agent === undefined ? 'person' : 'agent' });
    if (agent !== undefined) metrics.agentReplies.inc({ agent });
  }

  /**
   * The author replaces the content of their message (docs/CONTRACTS.md, Edits and deletions):
   * validated like a new one, `edited_at` set, `message_updated` to the chat's joined sockets. Any
   * other caller, a deleted message or a chat the author left: not found, as for a message one
   * cannot see.
   */
  async edit(editor: UserRow, messageId: string, rawContent: string | undefined, contentField = 'content'): Promise<{ row: MessageRow; frame: string }> {
    const message = await this.context.store.messages.findById(messageId);
    if (message === undefined || message.author !== editor.id || message.deleted_at !== null) throw recordErrors.notFound();
    if (announcementTypes.includes(message.message_type)) throw recordErrors.notFound();
    if (!(await this.mayChange(message, editor))) throw recordErrors.notFound();
    const errors: FieldErrors = {};
    const content = validateContent(errors, contentField, rawContent);
    throwIfErrors(errors, recordErrors.updateFailed);
    const now = formatTimestamp(this.context.config.now());
    const edited = await this.context.store.messages.edit(messageId, this.context.messageCipher.encrypt(content), now);
    if (edited === undefined) throw recordErrors.notFound();
    const previews = await this.replies.previewsFor([edited]);
    const frame = JSON.stringify({ type: 'message_updated', message: this.toWire(edited, editor, { preview: previews.get(edited.reply_to ?? '') }) } satisfies MessageUpdatedFrame);
    await this.publishChange(edited.chat, frame);
    return { row: edited, frame };
  }

  /**
   * A reply was stored: its original's new reply_count (and `updated`, set with the reply) goes to
   * the chat's joined sockets as message_updated; clients that were away catch up by `updated`.
   */
  private async announceReplyCount(originalId: string): Promise<void> {
    const original = await this.context.store.messages.findById(originalId);
    const author = original === undefined ? undefined : await this.context.store.users.findById(original.author);
    if (original === undefined || author === undefined) return;
    const frame = JSON.stringify({ type: 'message_updated', message: this.toWire(original, author) } satisfies MessageUpdatedFrame);
    await this.publishChange(original.chat, frame);
  }

  /**
   * The author, or an admin of the chat, deletes a message: its row stays with its seq, content
   * emptied and `deleted_at` set, and `message_deleted` goes to the chat's joined sockets. Anyone
   * else, or a message already deleted: not found.
   */
  async remove(remover: UserRow, messageId: string): Promise<{ row: MessageRow; frame: string }> {
    const message = await this.context.store.messages.findById(messageId);
    if (message === undefined || message.deleted_at !== null || message.message_type === 'system') throw recordErrors.notFound();
    if (!(await this.mayChange(message, remover))) throw recordErrors.notFound();
    if (message.author !== remover.id && !(await this.context.store.chats.isAdmin(message.chat, remover.id))) throw recordErrors.notFound();
    const now = formatTimestamp(this.context.config.now());
    const deleted = await this.context.store.messages.softDelete(messageId, this.context.messageCipher.encrypt(''), now);
    if (deleted === undefined) throw recordErrors.notFound();
    const frame = JSON.stringify({ type: 'message_deleted', chat_id: deleted.chat, message_id: deleted.id, seq: Number(deleted.seq), deleted_at: now } satisfies MessageDeletedFrame);
    await this.publishChange(deleted.chat, frame);
    return { row: deleted, frame };
  }

  /**
   * People change messages of chats they take part in. An agent changes its own messages wherever
   * it wrote them: it answers mentions in chats it does not belong to.
   */
  private async mayChange(message: MessageRow, user: UserRow): Promise<boolean> {
    if ((agentTypes as readonly string[]).includes(user.type) && message.author === user.id) return true;
    return this.context.store.chats.isParticipant(message.chat, user.id);
  }

  private async publishChange(chatId: string, frame: string): Promise<void> {
    const event: ChatFrameEvent = { kind: 'chat_frame', chat_id: chatId, frame };
    try {
      await this.context.bus.publish(chatChannel(chatId), event);
    } catch (error) {
      // Stored is what counts: clients that missed it catch up by `updated` (docs/CONTRACTS.md).
      this.context.logger.error({ error: String(error), chatId }, 'message change broadcast failed');
    }
  }

  private readonly postedListeners: PostedListener[] = [];

  /** Registers a listener for every newly stored message (see PostedListener). */
  onPosted(listener: PostedListener): void {
    this.postedListeners.push(listener);
  }

  /**
   * Who may post where, the one rule for people and agents: participants of the chat; and an
   * agent also in its dev room or where it holds an invocation (a mention or auto-route of it in
   * the last 10 minutes). People elsewhere get the record API's 400; agents a 403 `not_invoked`.
   */
  async requireMayPost(author: UserRow, chatId: string): Promise<void> {
    if (await this.context.store.chats.isParticipant(chatId, author.id)) return;
    if (!(agentTypes as readonly string[]).includes(author.type)) throw recordErrors.createFailed({});
    if (author.dev_room_id === chatId) return;
    const since = formatTimestamp(new Date(this.context.config.now().getTime() - agentLimits.invocationMs));
    if ((await this.context.store.agents.latestInvocation(author.id, chatId, since)) !== undefined) return;
    throw new ConfabServerError('forbidden', (await this.chatRuleRefusing(author, chatId)) ?? notInvokedText);
  }

  /**
   * When a chat's own rule keeps a developer agent out, the refusal names it: "mentioned in the
   * last 10 minutes" would send its developer looking for a mention that could never have reached
   * it. Said only when the agent's owner is in the chat (they can read its Chat Options anyway),
   * so a key cannot learn anything about other people's chats; otherwise null.
   */
  private async chatRuleRefusing(author: UserRow, chatId: string): Promise<string | null> {
    if (author.type !== 'developer-agent' || author.created_by === null || author.created_by === '') return null;
    const chat = await this.context.store.chats.findById(chatId);
    if (chat === undefined || !(await this.context.store.chats.isParticipant(chatId, author.created_by))) return null;
    if (!parsePermissions(chat.agent_permissions).developer_agents) return developerAgentsOffText;
    if (author.site_wide_available === 0) return notSiteWideText(author.username);
    return null;
  }

  /**
   * The mention a developer agent's reply names sets the hop of the mentions the reply makes
   * (agents/router.ts), so it must be a mention of this agent, in this chat, still running. Anything
   * else is refused, never swapped for another of its mentions (docs/SECURITY.md G11). People's
   * mention_id is ignored, and so is a hosted agent's (the server's own code, whose messages route
   * nothing, and whose work may outlast its mention while a newer one holds the grant).
   */
  async requireOwnMention(author: UserRow, chatId: string, mentionId: string): Promise<void> {
    if (author.type !== 'developer-agent') return;
    const mention = await this.context.store.agents.findMention(mentionId);
    if (mention === undefined || mention.agent !== author.id || mention.chat !== chatId) throw mentionIdRefused(mentionIdTexts.foreign);
    const now = this.context.config.now();
    const since = formatTimestamp(new Date(now.getTime() - agentLimits.invocationMs));
    if (mention.created <= since || mention.expires <= formatTimestamp(now)) throw mentionIdRefused(mentionIdTexts.expired);
  }
}

/**
 * The structured part of a file message or system line (docs/CONTRACTS.md, File messages and
 * system lines), or the cut-off mark of an agent's broken-off reply.
 */
export function announcementDetails(row: Pick<MessageRow, 'message_type' | 'details'>): Pick<WireMessage, 'file' | 'system' | 'cut_off'> {
  if (row.details === null) return {};
  try {
    const details: unknown = JSON.parse(row.details);
    if (row.message_type === 'file') return { file: details as MessageFile };
    if (row.message_type === 'system') return { system: details as SystemLine };
    if ((details as { cut_off?: unknown } | null)?.cut_off === true) return { cut_off: true };
  } catch {
    // Written by the server only; a broken one shows as its plain fallback content.
  }
  return {};
}

/** Why an agent's mention_id was refused (the HTTP answer's message and field, the socket's error frame). */
export const mentionIdTexts = {
  foreign: 'No mention of this agent in this chat has this id: reply with the mention_id of the mention you are answering.',
  expired: 'This mention is more than 10 minutes old: its invocation has ended.',
} as const;

function mentionIdRefused(text: string): ConfabServerError {
  return new ConfabServerError('badRequest', `Invalid mention_id. ${text}`, { mention_id: { code: 'validation_invalid_value', message: text } });
}

/** Why an agent may not post in a chat of its owner's, when the chat's rules are the reason. */
export const developerAgentsOffText = 'Developer agents are off in this chat, so this agent may not post here. A chat admin can allow them in Chat Options.';
export const notSiteWideText = (username: string) =>
  `@${username} is only available in its dev room, so it may not post here. Its owner can make it available site-wide.`;
export const notInvokedText = 'This agent may post only where it was mentioned in the last 10 minutes, in its dev room, or in a chat it belongs to.';
