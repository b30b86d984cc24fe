import nodemailer from 'nodemailer';
import type { MailTransport, OutgoingMail } from './transport';

/**
 * Bounds on one attempt, well inside the mail queue's claim lease (mail/queue.ts): a relay that
 * does not answer fails the attempt, which the queue tries again, instead of holding it for
 * nodemailer's defaults (2 minutes to connect, 10 minutes of silence).
 */
const timeouts = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const;

/** Sends through any SMTP relay given as `SMTP_URL` (smtp://user:pass@host:port). */
export class SmtpTransport implements MailTransport {
  private readonly transporter: nodemailer.Transporter;

  constructor(smtpUrl: string) {
    this.transporter = nodemailer.createTransport({ url: smtpUrl, ...timeouts });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }),
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
      ...(mail.inReplyTo === undefined ? {} : { inReplyTo: mail.inReplyTo, references: mail.inReplyTo }),
      ...(mail.unsubscribeUrl === undefined
        ? {}
        : { list: { unsubscribe: { url: mail.unsubscribeUrl, comment: 'Unsubscribe' } }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }),
    });
  }

  async close(): Promise<void> {
    this.transporter.close();
  }
}
