import { markdownToPlainText } from '@confab/client/rules';
import { missedMentionsMail } from '../mail/missedMentionsMail';
import { formatTimestamp } from '../store/ids';
import type { MissedMentionBatch } from '../store/repositories/missedMentions';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';
import { temporaryEmailDomain } from './invitations';
import { unsubscribeToken } from './unsubscribeTokens';

/**
 * Whether a person has a session open, so a mail about what they missed would be noise. The
 * server passes the gateway's local sessions; cross-instance presence can stand in later.
 */
export interface OpenSessions {
  hasOpenSession(userId: string): Promise<boolean>;
}

/** Batches one sweep handles at most; the rest wait for the next. */
const batchesPerSweep = 200;

/**
 * How far back past the delay a sweep looks: a mention that could not be mailed for a day (a
 * server down that long, a person online all day) is no longer news, and the bound keeps each
 * sweep to a day of mentions.
 */
const lookbackMs = 24 * 60 * 60 * 1000;

/** '2026-03-02 14:05:09.123Z' → '2026-03-02 14:05 UTC'. */
function mailTime(timestamp: string): string {
  return `${timestamp.slice(0, 16)} UTC`;
}

/**
 * The missed-mention mails (docs/CONTRACTS.md, Notifications), like Zulip's missed-message
 * mails: every `intervalMs` a sweep finds mentions and replies left unread for `delayMinutes` by
 * people with no open session, claims each person's batch per chat atomically and mails it once.
 */
export class MissedMentionMails {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly context: ServiceContext,
    private readonly sessions: OpenSessions,
    private readonly options: { intervalMs: number; delayMinutes: number },
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.sweepOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress, so shutdown never cuts a mail half-sent. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep (never two at once on one instance); answers how many mails it sent. */
  sweepOnce(): Promise<number> {
    if (this.running !== undefined) return this.running;
    this.running = this.sweep()
      .catch((error: unknown) => {
        this.context.logger.error({ error: String(error) }, 'missed-mention sweep failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async sweep(): Promise<number> {
    const cutoffMs = this.context.config.now().getTime() - this.options.delayMinutes * 60_000;
    const cutoff = formatTimestamp(new Date(cutoffMs));
    const since = formatTimestamp(new Date(cutoffMs - lookbackMs));
    const batches = await this.context.store.missedMentions.due({ since, cutoff, agentTypes, excludedEmailDomain: temporaryEmailDomain, limit: batchesPerSweep });
    let sent = 0;
    for (const batch of batches) {
      if (await this.sessions.hasOpenSession(batch.user_id)) continue;
      if (!(await this.context.store.missedMentions.claim(batch))) continue;
      if (await this.mail(batch)) sent += 1;
    }
    return sent;
  }

  private async mail(batch: MissedMentionBatch): Promise<boolean> {
    const [messages, person, chat] = await Promise.all([
      this.context.store.missedMentions.messagesOf(batch),
      this.context.store.users.findById(batch.user_id),
      this.context.store.chats.findById(batch.chat_id),
    ]);
    // Read or deleted between the claim and now: nothing left to tell.
    if (messages.length === 0 || person === undefined || chat === undefined) return false;
    const base = this.context.publicUrl();
    const firstId = messages[0]?.id ?? '';
    const mail = missedMentionsMail({
      to: person.email,
      from: `Confab <no-reply@${this.context.config.mailDomain}>`,
      personName: person.name === '' ? person.username : person.name,
      chatName: chat.name,
      messages: messages.map((message) => ({
        authorName: message.author_name === '' ? message.author_username : message.author_name,
        text: markdownToPlainText(this.decrypt(message.content_encrypted, message.id)),
        time: mailTime(message.created),
      })),
      chatLink: `${base}/chat/${encodeURIComponent(chat.id)}?message=${encodeURIComponent(firstId)}`,
      unsubscribeLink: `${base}/api/notifications/unsubscribe?token=${unsubscribeToken(this.context.config.secret, person.id)}`,
    });
    try {
      // Queued (mail/queue.ts): once stored, a relay that is down only delays it, and the claim stays.
      await this.context.mailQueue.enqueue(mail, { kind: 'missed_mentions' });
      return true;
    } catch (error) {
      // Not even stored: given back, so the next sweep tries again (unless someone read them meanwhile).
      this.context.logger.error({ error: String(error), chatId: batch.chat_id }, 'missed-mention mail could not be queued');
      await this.context.store.missedMentions.release(batch);
      return false;
    }
  }

  private decrypt(contentEncrypted: string, messageId: string): string {
    try {
      return this.context.messageCipher.decrypt(contentEncrypted);
    } catch {
      this.context.logger.warn({ messageId }, 'message content could not be decrypted');
      return '';
    }
  }
}
