import nodemailer from 'nodemailer';
import type { MailTransport, OutgoingMail } from './transport';

/** Sends through any SMTP relay given as `SMTP_URL` (smtp://user:pass@host:port). */
export class SmtpTransport implements MailTransport {
  private readonly transporter: nodemailer.Transporter;

  constructor(smtpUrl: string) {
    this.transporter = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
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
