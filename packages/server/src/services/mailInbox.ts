import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maxMessageLength } from '@confab/client/protocol';
import { formatTimestamp, newRecordId, randomAlphanumeric } from '../store/ids';
import { makePrivateFolder } from '../store/privateDataDir';
import type { ChatRow } from '../store/repositories/chats';
import { InboundMailsRepository } from '../store/repositories/inboundMails';
import type { UserRow } from '../store/repositories/users';
import type { ChatEvents } from './chatEvents';
import type { ServiceContext } from './context';
import { saveChatFile } from './files/saveChatFile';
import { incomingDirectory, StagedUpload } from './files/storage';
import { cleanOriginalName, refuseContent, refuseExtension, sniffBytes, uploadExtension, uploadMaximumBytes } from './files/uploadRules';
import type { MessagingService } from './messaging';

/** Where a mail goes: a chat, found by its address or a person's inbox (made on first mail). */
export type InboundRecipient = { kind: 'chat'; chat: ChatRow } | { kind: 'inbox'; user: UserRow };

/** A received mail, already parsed (mail/inbound.ts), with untrusted values throughout. */
export interface InboundMail {
  from: string;
  /** The sender's bare address, where a reply goes. */
  fromAddress: string;
  /** The mail's Message-ID with its angle brackets, for a reply's In-Reply-To. */
  messageId?: string | undefined;
  subject: string;
  /** The plain text; an HTML-only mail's HTML is turned into text before it gets here. */
  text: string;
  attachments: { filename: string; content: Buffer }[];
}

/** What a reply needs of a received mail (stored encrypted in `inbound_mails`). */
export interface InboundMailDetails {
  from: string;
  subject: string;
  messageId?: string;
}

/** Text from a mail shown as markdown: no live HTML, and no @mention that would invoke an agent. */
export function inertMailText(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/(^|[^\w.])@(?=\w)/g, '$1＠');
}

/** The message a mail becomes: who sent it, the subject and the body, within the message limit. */
export function mailMessageContent(mail: Pick<InboundMail, 'from' | 'subject' | 'text'>, stored: readonly string[]): string {
  const oneLine = (value: string) => inertMailText(value.replace(/\s+/g, ' ').trim());
  const head = [`**From:** ${oneLine(mail.from) || '(unknown sender)'}`, `**Subject:** ${oneLine(mail.subject) || '(no subject)'}`];
  const files = stored.length === 0 ? [] : ['', `**Attachments:** ${stored.map(oneLine).join(', ')}`];
  const tail = files.join('\n');
  const room = maxMessageLength - head.join('\n').length - tail.length - 8;
  let body = inertMailText(mail.text.replace(/\r\n/g, '\n').trim());
  if (body.length > room) body = `${body.slice(0, Math.max(0, room - 1))}…`;
  return [...head, '', body === '' ? '(empty mail)' : body].join('\n') + (tail === '' ? '' : `\n${tail}`);
}

/**
 * Inbound mail (docs/SECURITY.md M1–M7), the rules: which addresses exist, who a mail is posted as
 * (the built-in `email` agent user: one author for every outside sender, who has no account), and
 * which attachments become chat files (the upload allow-list and content check). The flood limits
 * are InboundMailLimits'.
 */
export class MailInboxService {
  private readonly inboxCreations = new Map<string, Promise<ChatRow>>();
  private readonly mails: InboundMailsRepository;

  constructor(
    private readonly context: ServiceContext,
    private readonly messaging: MessagingService,
    private readonly chatEvents: ChatEvents,
  ) {
    this.mails = new InboundMailsRepository(context.store.database);
  }

  /** The chat's latest received mail's thread details (for @email reply), if any. */
  async latestMail(chatId: string): Promise<InboundMailDetails | undefined> {
    const row = await this.mails.latestOf(chatId);
    if (row === undefined) return undefined;
    try {
      return JSON.parse(this.context.messageCipher.decrypt(row.details_encrypted, row.message)) as InboundMailDetails;
    } catch {
      return undefined;
    }
  }

  /** The recipient of `address`, or undefined for an address of another domain or nobody here. */
  async resolve(address: string): Promise<InboundRecipient | undefined> {
    const at = address.lastIndexOf('@');
    if (at <= 0) return undefined;
    const local = address.slice(0, at).toLowerCase();
    const domain = address.slice(at + 1).toLowerCase();
    if (domain !== this.context.config.mailDomain.toLowerCase()) return undefined;
    const chat = await this.context.store.chats.findByEmailAddress(local);
    if (chat !== undefined) return { kind: 'chat', chat };
    const user = await this.context.store.users.findByUsername(local);
    if (user !== undefined && user.type === 'user') return { kind: 'inbox', user };
    return undefined;
  }

  /** Posts `mail` to the recipient's chat as an `email` message, its allowed attachments as files. */
  async deliver(recipient: InboundRecipient, mail: InboundMail): Promise<{ chatId: string; files: string[] }> {
    const author = await this.context.store.users.findByUsername('email');
    if (author === undefined) throw new Error('the built-in email agent is missing');
    const chat = recipient.kind === 'chat' ? recipient.chat : await this.inboxOf(recipient.user);
    const stored: string[] = [];
    for (const attachment of mail.attachments) {
      const name = await this.storeAttachment(chat.id, author, attachment);
      if (name !== undefined) stored.push(name);
    }
    const posted = await this.messaging.post(author, { chatId: chat.id, content: mailMessageContent(mail, stored), messageType: 'email', grantChecked: true });
    const details: InboundMailDetails = { from: mail.fromAddress, subject: mail.subject, ...(mail.messageId === undefined ? {} : { messageId: mail.messageId }) };
    await this.mails.insert({
      message: posted.row.id,
      chat: chat.id,
      details_encrypted: this.context.messageCipher.encrypt(JSON.stringify(details), posted.row.id),
      created: posted.row.created,
    });
    return { chatId: chat.id, files: stored };
  }

  /** The person's inbox chat; one is made on their first mail (one at a time per person on this instance). */
  private async inboxOf(user: UserRow): Promise<ChatRow> {
    const existing = await this.context.store.chats.findInboxOf(user.id);
    if (existing !== undefined) return existing;
    const pending = this.inboxCreations.get(user.id);
    if (pending !== undefined) return pending;
    const creation = this.createInbox(user).finally(() => this.inboxCreations.delete(user.id));
    this.inboxCreations.set(user.id, creation);
    return creation;
  }

  private async createInbox(user: UserRow): Promise<ChatRow> {
    const now = formatTimestamp(this.context.config.now());
    const id = newRecordId();
    let emailAddress = `inbox-${user.username.toLowerCase()}-${randomAlphanumeric(6)}`;
    while (await this.context.store.chats.emailAddressTaken(emailAddress)) emailAddress = `inbox-${randomAlphanumeric(10)}`;
    const members = { participants: [user.id], admins: [user.id] };
    await this.context.store.chats.insert(
      { id, name: 'Inbox', description: 'Mail to your personal address', creator: user.id, email_address: emailAddress, is_inbox: 1, auto_route_enabled: 0, auto_route_agent: '', agent_permissions: null, created: now, updated: now },
      members,
    );
    await this.chatEvents.changed(id, [], members.participants);
    const chat = await this.context.store.chats.findById(id);
    if (chat === undefined) throw new Error('inbox chat vanished');
    return chat;
  }

  /** One attachment as a chat file when the upload rules allow it; undefined (and logged) otherwise. */
  private async storeAttachment(chatId: string, author: UserRow, attachment: InboundMail['attachments'][number]): Promise<string | undefined> {
    const originalName = cleanOriginalName(attachment.filename);
    const extension = uploadExtension(originalName);
    const bytes = attachment.content;
    const refusal =
      bytes.length === 0 || bytes.length > uploadMaximumBytes
        ? 'empty or too large'
        : (refuseExtension(extension, this.context.config.uploadExtensions) ?? refuseContent(extension, bytes.subarray(0, sniffBytes), bytes.length <= sniffBytes))?.message;
    if (refusal !== undefined) {
      this.context.logger.info({ chatId, extension, reason: refusal }, 'mail attachment not stored');
      return undefined;
    }
    const staging = join(incomingDirectory(this.context.config.dataDir), `mail-${newRecordId()}`);
    makePrivateFolder(incomingDirectory(this.context.config.dataDir));
    writeFileSync(staging, bytes, { mode: 0o600 });
    const upload = new StagedUpload(staging, originalName, bytes.length, bytes.subarray(0, sniffBytes));
    try {
      await saveChatFile(this.context, this.chatEvents, { chatId, uploaderId: author.id, upload, originalName, description: 'Attached to a mail' });
    } finally {
      // Already moved or uploaded, or refused by the store: never left behind.
      rmSync(staging, { force: true });
    }
    return originalName;
  }
}
