import { reactionLimits, reactionTexts, type ReactionsAnswer, type ReactionsChangedFrame, type ReactionSummary } from '@confab/client/protocol';
import { validateReactionEmoji } from '@confab/client/rules';
import { ConfabServerError } from '../errors';
import { chatChannel, type ChatFrameEvent } from '../realtime/channels';
import { formatTimestamp } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import { tooManyRequests } from './limits/rateLimits';
import type { MessagingService } from './messaging';

/** The 404 of a message one may not react to: missing, deleted, or in a chat one is not in. */
export const messageNotFoundText = 'Message not found';
export const reactionRateLimitedText = 'You are reacting too fast. Please wait a moment and try again.';

function refused(text: string): ConfabServerError {
  return new ConfabServerError('badRequest', text, { emoji: { code: 'validation_invalid_value', message: text } });
}

export interface ReactionResult {
  answer: ReactionsAnswer;
  /** The ready reactions_changed frame (also when nothing changed, for a caller not joined). */
  frame: string;
  changed: boolean;
}

/**
 * Emoji reactions (docs/CONTRACTS.md, Reactions), for the HTTP endpoints and the socket alike:
 * who may react, the emoji rule and the cap, and the broadcast of the summary read with the change.
 */
export class ReactionsService {
  constructor(
    private readonly context: ServiceContext,
    private readonly messaging: MessagingService,
  ) {}

  /**
   * Adds (`on`) or removes the caller's reaction. People react in chats they take part in; an
   * agent wherever it may post (services/messaging.ts `requireMayPost`: its dev room, its chats, or
   * where it was just mentioned). Refusals: 400 with the rule's text, 404 for a message the caller
   * cannot see or one deleted, 403 for an agent not invoked there, 429 past the rate.
   */
  async change(user: UserRow, messageId: string, emoji: unknown, on: boolean): Promise<ReactionResult> {
    const problem = validateReactionEmoji(emoji);
    if (problem !== null) throw refused(problem);
    const message = await this.context.store.messages.findById(messageId);
    if (message === undefined || message.deleted_at !== null) throw notFound();
    await this.requireMayReact(user, message.chat);
    const limits = this.context.rateLimits;
    if (!(await limits.take(`reactions:user:${user.id}`, limits.limits.messagesPerUser))) throw tooManyRequests(reactionRateLimitedText);
    const result = await this.context.store.reactions.change({
      messageId,
      userId: user.id,
      emoji: emoji as string,
      on,
      at: formatTimestamp(this.context.config.now()),
      distinctMaximum: reactionLimits.distinctEmojiPerMessage,
    });
    if (result.outcome === 'missing') throw notFound();
    if (result.outcome === 'too_many') throw refused(reactionTexts.tooMany);
    const answer: ReactionsAnswer = { chat_id: result.chat, message_id: messageId, reactions: result.reactions, version: result.version, updated: result.updated };
    const frame = JSON.stringify({ type: 'reactions_changed', ...answer } satisfies ReactionsChangedFrame);
    if (result.outcome === 'changed') await this.publish(result.chat, frame);
    return { answer, frame, changed: result.outcome === 'changed' };
  }

  /** The reaction summaries of these messages, for record lists and join replays. */
  async summaries(messageIds: readonly string[]): Promise<Map<string, ReactionSummary[]>> {
    return this.context.store.reactions.summaries(messageIds);
  }

  private async requireMayReact(user: UserRow, chatId: string): Promise<void> {
    if ((agentTypes as readonly string[]).includes(user.type)) return this.messaging.requireMayPost(user, chatId);
    if (!(await this.context.store.chats.isParticipant(chatId, user.id))) throw notFound();
  }

  private async publish(chatId: string, frame: string): Promise<void> {
    const event: ChatFrameEvent = { kind: 'chat_frame', chat_id: chatId, frame };
    try {
      await this.context.bus.publish(chatChannel(chatId), event);
    } catch (error) {
      // Stored is what counts: clients that missed it catch up by `updated` (docs/CONTRACTS.md).
      this.context.logger.error({ error: String(error), chatId }, 'reaction broadcast failed');
    }
  }
}

function notFound(): ConfabServerError {
  return new ConfabServerError('notFound', messageNotFoundText);
}
