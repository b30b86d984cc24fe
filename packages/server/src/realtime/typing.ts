import { typingLimits, type TypingFrame, type TypingNoticeFrame } from '@confab/client/protocol';
import type { Services } from '../services/index';
import { chatChannel, type ChatFrameEvent } from './channels';
import type { Connection } from './connection';
import { errorFrame } from './protocol';

/** Past this many remembered typists, those older than the throttle window are forgotten. */
const sweepAboveEntries = 1_000;

/**
 * Relays typing frames (docs/CONTRACTS.md, Typing and presence): only a person joined to the chat
 * may send one (joining checked that they take part; a removal makes their sockets leave), at most
 * one per person and chat per `serverIntervalMs` goes out (the rest are dropped silently, so a
 * buggy client cannot flood a chat), and it travels the chat's bus channel, so every instance's
 * joined sockets get it, the typist's own left out. Nothing is stored.
 */
export class TypingRelay {
  /** `<user id> <chat id>` → when their last typing frame went out, in ms. */
  private readonly lastSentMs = new Map<string, number>();

  constructor(
    private readonly services: Services,
    private readonly now: () => number = Date.now,
  ) {}

  async handle(connection: Connection, userId: string, frame: TypingFrame): Promise<void> {
    const chatId = frame.chat_id;
    if (connection.agentId !== undefined) {
      return connection.send(errorFrame('not_allowed', 'typing is for people; agents show what they do with agent_status', chatId));
    }
    if (connection.joined?.has(chatId) !== true) {
      if (!(await this.services.messaging.mayRead(chatId, userId))) {
        return connection.send(errorFrame('not_a_participant', 'you are not a participant of this chat', chatId));
      }
      return connection.send(errorFrame('invalid_frame', 'send join_chat for this chat before typing', chatId));
    }
    if (!this.allow(`${userId} ${chatId}`)) return;
    const user = await this.services.accounts.findUser(userId);
    if (user === undefined) return;
    const notice: TypingNoticeFrame = { type: 'typing', chat_id: chatId, user_id: user.id, username: user.username, name: user.name };
    const event: ChatFrameEvent = { kind: 'chat_frame', chat_id: chatId, frame: JSON.stringify(notice), skip_user_id: user.id };
    await this.services.context.bus.publish(chatChannel(chatId), event);
  }

  /** The person's message went out: their next keystroke may say they type again at once. */
  sent(userId: string, chatId: string): void {
    this.lastSentMs.delete(`${userId} ${chatId}`);
  }

  private allow(key: string): boolean {
    const nowMs = this.now();
    const last = this.lastSentMs.get(key);
    if (last !== undefined && nowMs - last < typingLimits.serverIntervalMs) return false;
    this.lastSentMs.set(key, nowMs);
    if (this.lastSentMs.size > sweepAboveEntries) this.sweep(nowMs);
    return true;
  }

  private sweep(nowMs: number): void {
    for (const [key, at] of this.lastSentMs) if (nowMs - at >= typingLimits.serverIntervalMs) this.lastSentMs.delete(key);
  }
}
