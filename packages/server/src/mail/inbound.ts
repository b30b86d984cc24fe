import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { InboundMailStatus, ServiceContext } from '../services/context';
import type { Services } from '../services/index';
import { InboundMailLimits, inboundLimitReplies, recipientKey } from '../services/inboundMailLimits';
import { MailInboxService, type InboundRecipient } from '../services/mailInbox';

/** The largest mail accepted, headers and attachments included (advertised as SIZE). */
export const inboundMaximumBytes = 25 * 1024 * 1024;

/** A running inbound listener; `port` is the one it got (useful with port 0). */
export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply: smtp-server answers an error with its `responseCode`. */
function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

function senderOf(session: SMTPServerSession): string {
  const from = session.envelope.mailFrom;
  return from === false ? '' : from.address;
}

/** Drains the DATA stream, keeping at most the limit in memory; undefined when it went past it. */
async function readLimited(stream: Readable & { sizeExceeded?: boolean }): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size <= inboundMaximumBytes) chunks.push(chunk as Buffer);
  }
  return stream.sizeExceeded === true || size > inboundMaximumBytes ? undefined : Buffer.concat(chunks);
}

function addressText(from: AddressObject | AddressObject[] | undefined, fallback: string): string {
  const first = Array.isArray(from) ? from[0] : from;
  return first?.text ?? fallback;
}

/** The recipients of the mail transaction under way, kept per SMTP session (reset by each MAIL FROM). */
interface Transaction {
  recipients: InboundRecipient[];
  /** Recipient keys already accepted: an address named twice is delivered and counted once. */
  keys: Set<string>;
  /** RCPT commands so far, refused ones included, so addresses cannot be guessed by the thousand. */
  attempts: number;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The inbound SMTP listener (docs/PRODUCT.md §1 inbox addresses): plain SMTP, no AUTH, meant for
 * 127.0.0.1 or behind the domain's MX. RCPT to an address that is not a chat's or a person's is
 * refused with 550; a mail over 25 MB gets 552. Flood limits (InboundMailLimits): a connecting
 * address past its hourly mails gets 451 at MAIL FROM, a recipient past its hourly mails 451 at
 * RCPT, recipients past the per-mail cap 452, and a mail whose attachments a recipient chat has no
 * upload allowance left for 452 at the end of DATA. Each accepted mail becomes an `email` message
 * in every recipient's chat (MailInboxService holds the rules).
 */
export function createInboundSmtp(services: Services): SMTPServer {
  const inbox = new MailInboxService(services.context, services.messaging, services.chatEvents);
  const limits = new InboundMailLimits(services.context);
  const logger = services.context.logger;
  const transactions = new WeakMap<SMTPServerSession, Transaction>();
  const refuse = (reply: { code: number; text: string }) => smtpError(reply.code, reply.text);
  return new SMTPServer({
    name: services.context.config.mailDomain,
    banner: 'Confab inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: inboundMaximumBytes,
    logger: false,
    onMailFrom(_address: SMTPServerAddress, session, callback) {
      transactions.set(session, { recipients: [], keys: new Set(), attempts: 0 });
      limits.allowAddress(session.remoteAddress).then(
        (allowed) => callback(allowed ? undefined : refuse(inboundLimitReplies.address)),
        (error: unknown) => callback(asError(error)),
      );
    },
    onRcptTo(address: SMTPServerAddress, session, callback) {
      const transaction = transactions.get(session) ?? { recipients: [], keys: new Set<string>(), attempts: 0 };
      transactions.set(session, transaction);
      transaction.attempts += 1;
      if (transaction.attempts > limits.recipientsPerMail) return callback(refuse(inboundLimitReplies.recipients(limits.recipientsPerMail)));
      const accept = async () => {
        const recipient = await inbox.resolve(address.address);
        if (recipient === undefined) throw smtpError(550, 'No such mailbox here');
        const key = recipientKey(recipient);
        if (transaction.keys.has(key)) return;
        if (!(await limits.allowRecipient(recipient))) throw refuse(inboundLimitReplies.recipient);
        transaction.keys.add(key);
        transaction.recipients.push(recipient);
      };
      return accept().then(
        () => callback(),
        (error: unknown) => callback(asError(error)),
      );
    },
    onData(stream, session, callback) {
      const targets = transactions.get(session)?.recipients ?? [];
      transactions.delete(session);
      const deliver = async () => {
        const raw = await readLimited(stream);
        if (raw === undefined) throw smtpError(552, 'Mail is larger than 25 MB');
        const parsed = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true, skipImageLinks: true });
        // mailparser turns an HTML-only body into text; the HTML itself is never kept.
        const mail = {
          from: addressText(parsed.from, senderOf(session)),
          fromAddress: parsed.from?.value[0]?.address ?? senderOf(session),
          messageId: parsed.messageId,
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          attachments: parsed.attachments.map((attachment) => ({ filename: attachment.filename ?? 'attachment', content: attachment.content })),
        };
        // Every attachment byte received is spent, stored or not, as with uploads.
        const attachmentBytes = mail.attachments.reduce((total, attachment) => total + attachment.content.length, 0);
        if (!(await limits.spendAttachments(targets, attachmentBytes))) throw refuse(inboundLimitReplies.attachments);
        for (const target of targets) await inbox.deliver(target, mail);
      };
      deliver().then(
        () => callback(),
        (error: unknown) => {
          if (error instanceof Error && 'responseCode' in error) return callback(error);
          logger.error({ error: String(error) }, 'inbound mail not delivered');
          return callback(smtpError(451, 'Could not deliver the mail now; try again later'));
        },
      );
    },
  });
}

/**
 * Starts the listener on `host:port`. A port another process holds is not fatal: the server runs
 * without inbound mail, says so once in the log, and /api/health reports it (`status`).
 */
export async function startInboundSmtp(
  services: Services,
  address: { host: string; port: number },
  status: InboundMailStatus,
  logger: ServiceContext['logger'],
): Promise<InboundSmtp | undefined> {
  const server = createInboundSmtp(services);
  // smtp-server re-emits its socket's errors: before listening they are the listen's failure;
  // after, a broken connection, never the server's end.
  let failListen: ((error: Error) => void) | undefined;
  server.on('error', (error) => (failListen === undefined ? logger.warn({ error: String(error) }, 'inbound SMTP connection error') : failListen(error)));
  try {
    await new Promise<void>((resolve, reject) => {
      failListen = reject;
      server.listen(address.port, address.host, () => {
        failListen = undefined;
        resolve();
      });
    });
  } catch (error) {
    const problem = `inbound SMTP could not listen on ${address.host}:${address.port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    Object.assign(status, { state: 'unavailable', address: `${address.host}:${address.port}`, problem });
    logger.warn({ address: `${address.host}:${address.port}` }, `${problem}; mail to inbox addresses is not received`);
    server.server.close();
    return undefined;
  }
  const port = (server.server.address() as AddressInfo).port;
  Object.assign(status, { state: 'listening', address: `${address.host}:${port}` });
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
