import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailTransport, OutgoingMail } from './transport';

export interface MailLogger {
  info(object: Record<string, unknown>, message: string): void;
}

/** Header values must not smuggle extra headers in. */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** RFC 2047 encoding keeps non-ASCII subjects valid. */
function encodeSubject(subject: string): string {
  const clean = headerValue(subject);
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

/** `Ann <ann@example.com>` → 'example.com'; the mailbox itself stays out of the log. */
export function recipientDomain(to: string): string {
  const address = /<([^>]*)>/.exec(to)?.[1] ?? to;
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1).trim().replace(/[^A-Za-z0-9.-]/g, '');
}

export function renderEml(mail: OutgoingMail, date: Date, messageId: string): string {
  const headers = [
    `From: ${headerValue(mail.from)}`,
    `To: ${headerValue(mail.to)}`,
    `Subject: ${encodeSubject(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
  ];
  if (mail.replyTo !== undefined) headers.push(`Reply-To: ${headerValue(mail.replyTo)}`);
  if (mail.unsubscribeUrl !== undefined) headers.push(`List-Unsubscribe: <${headerValue(mail.unsubscribeUrl)}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  if (mail.inReplyTo !== undefined) headers.push(`In-Reply-To: ${headerValue(mail.inReplyTo)}`, `References: ${headerValue(mail.inReplyTo)}`);
  const crlf = (body: string) => body.replace(/\r?\n/g, '\r\n');
  if (mail.html === undefined) {
    headers.push('Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit');
    return `${headers.join('\r\n')}\r\n\r\n${crlf(mail.text)}\r\n`;
  }
  // Text and HTML alternatives; the HTML part holds only escaped user values (mail/templates.ts).
  const boundary = `confab-${messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  headers.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
  const part = (type: string, body: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${crlf(body)}\r\n`;
  return `${headers.join('\r\n')}\r\n\r\n${part('text/plain', mail.text)}${part('text/html', mail.html)}--${boundary}--\r\n`;
}

/**
 * The embedded default: every mail becomes `<dataDir>/outbox/<timestamp>-<id>.eml`, so a fresh
 * install works without any mail server. The log names the subject, the recipient's domain and
 * the file, never the link: reset and invitation links carry live tokens, and logs travel
 * further than the data directory. A developer reads the mail in the .eml file.
 */
export class OutboxTransport implements MailTransport {
  /** Keeps file names in sending order even for mails written within one millisecond. */
  private sequence = 0;

  constructor(
    private readonly outboxDir: string,
    private readonly logger: MailLogger,
    private readonly now: () => Date,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    // Private like the rest of the data dir (docs/SECURITY.md A14): the mails carry live links.
    await mkdir(this.outboxDir, { recursive: true, mode: 0o700 });
    const date = this.now();
    this.sequence += 1;
    const id = `${String(this.sequence).padStart(6, '0')}${randomBytes(4).toString('hex')}`;
    const stamp = date.toISOString().replace(/[-:.]/g, '');
    const domain = mail.from.split('@')[1]?.replace(/[^A-Za-z0-9.-]/g, '') ?? 'confab.localhost';
    const path = join(this.outboxDir, `${stamp}-${id}.eml`);
    const messageId = mail.messageId?.replace(/^<|>$/g, '') ?? `${id}@${domain}`;
    await writeFile(path, renderEml(mail, date, messageId), { mode: 0o600 });
    this.logger.info({ subject: mail.subject, toDomain: recipientDomain(mail.to), file: path }, 'mail written to outbox');
  }

  async close(): Promise<void> {}
}
