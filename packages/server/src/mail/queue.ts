import { randomBytes } from 'node:crypto';
import type { ContentCipher } from '../services/contentCipher';
import type { ConfabDatabase } from '../store/database';
import { formatTimestamp, newRecordId } from '../store/ids';
import { MailQueueRepository, type MailQueueRow } from '../store/repositories/mailQueue';
import { recipientDomain } from './outboxTransport';
import type { MailTransport, OutgoingMail } from './transport';

/** What a queued mail is, for logs and metrics (the row keeps nothing else in the clear). */
export type MailKind = 'invitation' | 'password_reset' | 'email_agent' | 'missed_mentions';

export interface MailQueueLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}

/** How the queue retries; every field has a default (config.ts, docs/OPERATIONS.md). */
export interface MailQueueTiming {
  /** The first retry's delay; each next one doubles it (default 30 s). */
  retryBaseMs: number;
  /** The longest delay between two attempts (default 1 hour). */
  retryMaxMs: number;
  /** How long after it was queued a mail is still retried (default 1 day). */
  retryForMs: number;
  /** How often each instance looks for due mails (default 5 s). */
  pollMs: number;
  /** How long the action that queued a mail waits for its first attempt before it answers 'queued' (default 5 s). */
  firstAttemptWaitMs?: number;
  /** How long a claim holds a row; one whose sender died is tried again after it (default 10 minutes). */
  leaseMs?: number;
}

export interface EnqueueOptions {
  kind: MailKind;
  /**
   * A group: queuing a mail supersedes the group's pending mails that have not gone yet (a newer
   * reset link for one account, a newer invitation to one address and chat), so the relay coming
   * back sends the one link that still works, not every one asked for meanwhile.
   */
  group?: string;
  /** Not worth sending after this (a reset link's expiry); default: `retryForMs` after now. */
  giveUpAt?: Date;
}

/**
 * What the person who acted is told: 'sent' when the relay took the mail before the action
 * answered, 'queued' when it is kept and tried again (the relay is down, slow or refused for now).
 */
export interface EnqueuedMail {
  id: string;
  state: 'sent' | 'queued';
}

type AttemptOutcome = 'sent' | 'retry' | 'failed';

/** Mails one claim takes at most; the next claim follows at once while claims come back full. */
const claimBatch = 20;
/** Finished rows (their bodies already emptied) are kept this long, then removed. */
const finishedRetentionMs = 7 * 24 * 60 * 60 * 1000;
/** How often an instance removes old finished rows. */
const purgeEveryMs = 60 * 60 * 1000;
/** How long close() waits for attempts in flight before it lets them go (their leases bring them back). */
const closeWaitMs = 10_000;

/**
 * An SMTP failure as codes only (`451 EMESSAGE DATA`), never its text: relay answers quote the
 * recipient's address. `permanent` for a 5xx answer, or an envelope or message the client itself
 * refused; anything else (no connection, a timeout, a 4xx) is worth another try.
 */
export function mailFailure(error: unknown): { permanent: boolean; summary: string } {
  const fields = typeof error === 'object' && error !== null ? (error as { code?: unknown; responseCode?: unknown; command?: unknown }) : {};
  const responseCode = typeof fields.responseCode === 'number' ? fields.responseCode : undefined;
  const code = typeof fields.code === 'string' ? fields.code.replace(/[^A-Za-z0-9_]/g, '').slice(0, 32) : '';
  const command = typeof fields.command === 'string' ? fields.command.replace(/[^A-Za-z ]/g, '').slice(0, 16) : '';
  const permanent = responseCode !== undefined ? responseCode >= 500 && responseCode < 600 : code === 'EENVELOPE' || code === 'EMESSAGE';
  const summary = [responseCode === undefined ? '' : String(responseCode), code === '' ? 'Error' : code, command].filter((part) => part !== '').join(' ');
  return { permanent, summary };
}

/** The delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped, ±25 % jitter. */
export function retryDelayMs(attempts: number, timing: Pick<MailQueueTiming, 'retryBaseMs' | 'retryMaxMs'>, random: () => number = Math.random): number {
  const exponential = timing.retryBaseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return Math.round(Math.min(exponential, timing.retryMaxMs) * (0.75 + random() * 0.5));
}

/**
 * The durable outgoing-mail queue (docs/OPERATIONS.md, Outbound mail). Every mail the server
 * sends is first stored in `mail_queue` (migration 019), encrypted like message content; the
 * action that queued it then makes the first attempt at once and answers 'sent' or 'queued'. A
 * mail the relay did not take is tried again with exponential backoff and jitter (30 s doubling to
 * 1 hour) for a day, by whichever instance claims it first, and given up on a permanent (5xx)
 * refusal or when the day is over; then only ids, kinds and domains are logged.
 *
 * Once per mail: every attempt holds a claim (an atomic UPDATE, FOR UPDATE SKIP LOCKED on
 * PostgreSQL) with a lease, and only the claim's holder may mark the row sent or schedule it
 * again, so two instances never send one row twice. The one double-send left is SMTP's own
 * (RFC 1047): the relay took the mail but its answer to the end of DATA never came back (a cut
 * connection, a timeout, a crash of this process). The queue cannot tell that from a mail the relay
 * never took, and it chooses to send again rather than lose a reset link or an invitation; the
 * mail carries the same Message-ID on every attempt, so receiving systems and mail programs that
 * deduplicate by Message-ID show it once.
 */
export class MailQueue {
  private readonly rows: MailQueueRepository;
  private readonly timing: Required<MailQueueTiming>;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private readonly inFlight = new Set<Promise<AttemptOutcome>>();
  private closed = false;
  private lastPurgeMs = 0;

  constructor(
    database: ConfabDatabase,
    private readonly transport: MailTransport,
    private readonly cipher: ContentCipher,
    private readonly logger: MailQueueLogger,
    private readonly now: () => Date,
    private readonly mailDomain: string,
    timing: MailQueueTiming,
  ) {
    this.rows = new MailQueueRepository(database);
    this.timing = { firstAttemptWaitMs: 5_000, leaseMs: 10 * 60 * 1000, ...timing };
  }

  /**
   * Stores `mail` and makes its first attempt right away, waiting for it at most
   * `firstAttemptWaitMs`: answers 'sent' when the relay took it by then, else 'queued' (the
   * attempt goes on, and the queue retries it). Throws only when the mail could not be stored.
   */
  async enqueue(mail: OutgoingMail, options: EnqueueOptions): Promise<EnqueuedMail> {
    const id = newRecordId();
    const nowDate = this.now();
    const now = formatTimestamp(nowDate);
    const giveUpMs = Math.min(options.giveUpAt?.getTime() ?? Number.POSITIVE_INFINITY, nowDate.getTime() + this.timing.retryForMs);
    const queued: OutgoingMail = { ...mail, messageId: `<${id}.${randomBytes(6).toString('hex')}@${this.mailDomain}>` };
    const token = newClaimToken();
    const row: Omit<MailQueueRow, 'status' | 'last_error' | 'finished_at'> = {
      id,
      kind: options.kind,
      group_key: options.group ?? null,
      message_id: queued.messageId ?? '',
      to_domain: recipientDomain(mail.to),
      mail_encrypted: this.cipher.encrypt(JSON.stringify(queued), id),
      attempts: 1,
      created: now,
      next_attempt_at: formatTimestamp(new Date(nowDate.getTime() + this.timing.leaseMs)),
      give_up_at: formatTimestamp(new Date(giveUpMs)),
      claim_token: token,
    };
    await this.rows.insertClaimed(row);
    const attempt = this.track(this.attempt({ ...row, status: 'pending', last_error: '', finished_at: null }, queued, token));
    let timeout: NodeJS.Timeout | undefined;
    const waited = new Promise<'waiting'>((resolve) => {
      timeout = setTimeout(() => resolve('waiting'), this.timing.firstAttemptWaitMs);
    });
    const outcome = await Promise.race([attempt, waited]);
    clearTimeout(timeout);
    return { id, state: outcome === 'sent' ? 'sent' : 'queued' };
  }

  /** The queue depth for the operator's metrics: mails not sent yet (waiting or being tried). */
  depth(): Promise<number> {
    return this.rows.pendingCount();
  }

  /** Starts this instance's worker: one pass now (mail queued before a restart goes out), then every `pollMs`. */
  start(): void {
    if (this.timer !== undefined || this.closed) return;
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.timing.pollMs);
    this.timer.unref();
  }

  /**
   * One pass (never two at once on one instance): claims the due mails, batch after batch, and
   * tries each. Answers how many were sent.
   */
  runOnce(): Promise<number> {
    if (this.sweeping !== undefined) return this.sweeping;
    this.sweeping = this.sweep()
      .catch((error: unknown) => {
        this.logger.error({ error: mailFailure(error).summary }, 'mail queue pass failed');
        return 0;
      })
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  /** Stops the worker and waits (a bounded time) for the pass and the attempts in flight. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([this.sweeping, ...this.inFlight]),
      new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, closeWaitMs);
      }),
    ]);
    clearTimeout(timeout);
  }

  private async sweep(): Promise<number> {
    let sent = 0;
    await this.purgeNowAndThen();
    while (!this.closed) {
      const nowDate = this.now();
      const now = formatTimestamp(nowDate);
      if (!(await this.rows.hasDue(now))) break;
      const token = newClaimToken();
      const claimed = await this.rows.claimDue({ now, leaseUntil: formatTimestamp(new Date(nowDate.getTime() + this.timing.leaseMs)), token, limit: claimBatch });
      for (const row of claimed) {
        let mail: OutgoingMail;
        try {
          mail = JSON.parse(this.cipher.decrypt(row.mail_encrypted, row.id)) as OutgoingMail;
        } catch {
          // Encrypted under another secret, or damaged: no attempt could ever send it.
          await this.rows.markFailed(row.id, token, now, 'undecryptable');
          this.logger.error({ mailId: row.id, kind: row.kind, toDomain: row.to_domain }, 'queued mail could not be decrypted; given up');
          continue;
        }
        if ((await this.track(this.attempt(row, mail, token))) === 'sent') sent += 1;
      }
      if (claimed.length < claimBatch) break;
    }
    return sent;
  }

  private track(attempt: Promise<AttemptOutcome>): Promise<AttemptOutcome> {
    this.inFlight.add(attempt);
    void attempt.finally(() => this.inFlight.delete(attempt));
    return attempt;
  }

  /** One attempt of a claimed row; records its outcome under the claim. Never throws. */
  private async attempt(row: MailQueueRow, mail: OutgoingMail, token: string): Promise<AttemptOutcome> {
    const about = { mailId: row.id, kind: row.kind, toDomain: row.to_domain, attempt: row.attempts };
    try {
      await this.transport.send(mail);
    } catch (error) {
      return this.failed(row, token, error, about);
    }
    try {
      const recorded = await this.rows.markSent(row.id, token, formatTimestamp(this.now()));
      // Not recorded: this attempt outlived its lease (transport timeouts keep attempts far shorter).
      if (!recorded) this.logger.warn(about, 'queued mail sent after its claim ran out');
      else if (row.attempts > 1) this.logger.info(about, 'queued mail sent');
      return 'sent';
    } catch (error) {
      // Sent, but not recorded: the lease runs out and the mail is sent again (same Message-ID).
      this.logger.error({ ...about, error: mailFailure(error).summary }, 'queued mail sent but not marked sent');
      return 'sent';
    }
  }

  private async failed(row: MailQueueRow, token: string, error: unknown, about: Record<string, unknown>): Promise<AttemptOutcome> {
    const failure = mailFailure(error);
    const nowDate = this.now();
    const now = formatTimestamp(nowDate);
    try {
      const next = formatTimestamp(new Date(nowDate.getTime() + retryDelayMs(row.attempts, this.timing)));
      if (failure.permanent || next > row.give_up_at) {
        await this.rows.markFailed(row.id, token, now, failure.summary);
        const reason = failure.permanent ? 'refused by the relay' : 'still not sent when its retries ran out';
        this.logger.error({ ...about, error: failure.summary }, `queued mail ${reason}; given up`);
        return 'failed';
      }
      await this.rows.reschedule(row.id, token, next, failure.summary);
      this.logger.warn({ ...about, error: failure.summary, nextAttemptAt: next }, 'mail not sent yet; queued for another attempt');
      return 'retry';
    } catch (recordError) {
      // Not recorded: the row keeps its claim until the lease runs out, then it is tried again.
      this.logger.error({ ...about, error: mailFailure(recordError).summary }, 'mail queue could not record a failed attempt');
      return 'retry';
    }
  }

  private async purgeNowAndThen(): Promise<void> {
    const nowMs = this.now().getTime();
    if (nowMs - this.lastPurgeMs < purgeEveryMs) return;
    this.lastPurgeMs = nowMs;
    await this.rows.purgeFinished(formatTimestamp(new Date(nowMs - finishedRetentionMs)));
  }
}

function newClaimToken(): string {
  return randomBytes(12).toString('base64url');
}
