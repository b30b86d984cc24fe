import type { Mention, WireMessage } from '@confab/client/protocol';
import type { EnqueuedMail } from '../../mail/queue';
import type { OutgoingMail } from '../../mail/transport';
import type { ContentCipher } from '../../services/contentCipher';
import type { Services } from '../../services/index';
import { inertMailText, MailInboxService } from '../../services/mailInbox';
import type { ConfabDatabase } from '../../store/database';
import { formatTimestamp, newRecordId } from '../../store/ids';
import type { ChatRow } from '../../store/repositories/chats';
import { EmailDraftsRepository } from '../../store/repositories/emailDrafts';
import { addKeyHint, AiError, type AiGateway } from '../ai/types';
import type { HostedAgentHandler, InProcessReply } from '../transports/inProcess';

/** How long a draft waits for its author's `@email send`. */
export const draftLifetimeMs = 15 * 60 * 1000;
/**
 * Mails one person may send through @email per hour (shared through Redis). Counted on each
 * instance alone while Redis is away: a refusal then would lose the draft it took
 * (docs/OPERATIONS.md, Fault matrix).
 */
export const sentMailsPerUserPerHour = { maximum: 20, windowMs: 60 * 60 * 1000, name: 'sentMailsPerUser', whenUnreachable: 'local' } as const;
const listMaximum = 10;
const bodyMaximum = 8000;

export const emailAgentHelp = [
  'I send mail from this chat’s own address and show the mail it received.',
  '',
  '- `@email` (or `@email list`) shows the latest mails sent to this chat',
  '- `@email send a summary of this chat to bob@example.com` writes a draft and shows it; **nothing is sent yet**',
  '- `@email reply Thanks, we ship on Monday` drafts an answer to the latest mail, in its thread',
  '- `@email send` sends your draft (only yours, within 15 minutes); `@email cancel` drops it',
  '- `@email help` shows this',
].join('\n');

const composeInstructions = [
  'You write an e-mail on behalf of a group chat, for a reader who was not in it.',
  'Answer with one JSON object only, no prose around it: {"subject": string (at most 120 characters), "body": string (plain text, at most 4000 characters)}.',
  'Follow the request. Use only what the messages say. Sign as the chat, not as an AI.',
].join(' ');

/** A mail written and shown, waiting for the one person who asked for it. */
export interface EmailDraft {
  to: string;
  subject: string;
  text: string;
  /** The Message-ID a reply answers (In-Reply-To, References). */
  inReplyTo?: string;
  expiresAtMs: number;
}

/** A draft taken for sending; `release` puts it back when it was certainly not sent. */
export interface TakenDraft extends EmailDraft {
  release(): Promise<void>;
}

/**
 * Pending drafts per chat and asker, in the database (`email_drafts`, migration 011), so a draft
 * shown by one instance can be confirmed on another or after a restart. The draft (recipient,
 * subject, text) is encrypted like message content. Taking a draft is one conditional update
 * (see EmailDraftsRepository.claim): two confirmations racing send it once.
 */
export class EmailDrafts {
  private readonly drafts: EmailDraftsRepository;

  constructor(
    database: ConfabDatabase,
    private readonly cipher: ContentCipher,
  ) {
    this.drafts = new EmailDraftsRepository(database);
  }

  /** Shows `draft` as the asker's one waiting draft in the chat (an older one of theirs there is dropped). */
  async put(chatId: string, askerId: string, draft: EmailDraft, nowMs: number): Promise<void> {
    const id = newRecordId();
    const { expiresAtMs, ...mail } = draft;
    await this.drafts.replace({
      id,
      chat: chatId,
      asker: askerId,
      draft_encrypted: this.cipher.encrypt(JSON.stringify(mail), id),
      created: formatTimestamp(new Date(nowMs)),
      expires_at: formatTimestamp(new Date(expiresAtMs)),
    });
  }

  /** Takes the asker's live draft in this chat (no one else can take it again); undefined when none or expired. */
  async take(chatId: string, askerId: string, nowMs: number): Promise<TakenDraft | undefined> {
    const now = formatTimestamp(new Date(nowMs));
    const row = await this.drafts.findWaiting(chatId, askerId, now);
    if (row === undefined || !(await this.drafts.claim(row.id, now))) return undefined;
    let mail: Omit<EmailDraft, 'expiresAtMs'>;
    try {
      mail = JSON.parse(this.cipher.decrypt(row.draft_encrypted, row.id)) as Omit<EmailDraft, 'expiresAtMs'>;
    } catch {
      return undefined;
    }
    return { ...mail, expiresAtMs: Date.parse(row.expires_at.replace(' ', 'T')), release: () => this.drafts.release(row.id, now) };
  }
}

/** `@email send` when the relay took the mail at once. */
export function sentAnswer(draft: Pick<EmailDraft, 'to' | 'subject'>, ownAddress: string): string {
  return `Sent “${draft.subject}” to ${draft.to} from ${ownAddress}. Replies come back to this chat.`;
}

/**
 * `@email send` when the mail server could not take the mail yet: it is kept in the mail queue
 * and sent once the server is reachable again (mail/queue.ts); nothing for the person to redo.
 */
export function queuedAnswer(draft: Pick<EmailDraft, 'to' | 'subject'>, ownAddress: string): string {
  return [
    `Queued “${draft.subject}” to ${draft.to} from ${ownAddress}: the mail server cannot be reached right now, so your mail waits in the queue and is sent as soon as it can be (it is tried for up to a day). You do not need to send it again.`,
    'Replies come back to this chat.',
  ].join(' ');
}

/** The request after '@email': '', 'list', 'send …', 'cancel', 'help'. */
export function emailRequestOf(content: string): string {
  return content.replace(/(?<![\w@.])@email\b/gi, '').trim();
}

const addressPattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** The first mail address in a request, or undefined. */
export function recipientOf(request: string): string | undefined {
  return addressPattern.exec(request)?.[0];
}

function clip(text: string, maximum: number): string {
  return text.length <= maximum ? text : `${text.slice(0, maximum - 1).trimEnd()}…`;
}

/** People's messages worth mailing: not commands to agents, not agents' replies. */
function discussionOf(context: readonly WireMessage[]): WireMessage[] {
  return context.filter((message) => !message.is_agent && message.content.trim() !== '' && !/^\s*@\w+\b/.test(message.content));
}

/** A draft with no model: the discussion's latest messages under a plain greeting. */
export function templateDraft(mention: Pick<Mention, 'chat_name' | 'context' | 'author_name'>): { subject: string; text: string } {
  const lines = discussionOf(mention.context)
    .slice(-15)
    .map((message) => `- ${message.author_name}: ${clip(message.content.replace(/\s+/g, ' ').trim(), 300)}`);
  const text = [
    'Hello,',
    '',
    lines.length === 0 ? `Nothing has been said in "${mention.chat_name}" yet.` : `Here is a summary of the chat "${mention.chat_name}":`,
    '',
    ...lines,
    '',
    `Sent by ${mention.author_name} from Confab.`,
  ].join('\n');
  return { subject: clip(`Summary of ${mention.chat_name}`, 120), text };
}

/** The model's JSON answer as a draft, or undefined when it is not usable. */
export function parseDraft(text: string): { subject: string; text: string } | undefined {
  try {
    const value = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as Record<string, unknown>;
    const subject = typeof value['subject'] === 'string' ? value['subject'].replace(/\s+/g, ' ').trim() : '';
    const body = typeof value['body'] === 'string' ? value['body'].trim() : '';
    return subject === '' || body === '' ? undefined : { subject: clip(subject, 120), text: clip(body, bodyMaximum) };
  } catch {
    return undefined;
  }
}

/** `"Chat name" <address@domain>`: the chat's own address, its name without header-breaking characters. */
function chatAddress(chat: ChatRow, mailDomain: string): string {
  const name = chat.name.replace(/["<>\\\r\n]/g, '').trim();
  return `"${name === '' ? 'Confab chat' : name}" <${chat.email_address}@${mailDomain}>`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * @email: lists the chat's received mail; drafts a mail (through the AI gateway with
 * a key, from a template without), shows it and sends nothing until the person who asked says
 * `@email send`; then sends it once from the chat's address (Reply-To the chat, so answers come
 * back here) through the mail queue (mail/queue.ts): while the mail server is down it says the
 * mail is queued, and the queue sends it when the server is back. Anything else goes to
 * `fallback` (the Email persona).
 */
export function createEmailAgent(services: Services, ai: AiGateway | undefined, fallback: HostedAgentHandler): HostedAgentHandler {
  const context = services.context;
  const drafts = new EmailDrafts(context.store.database, context.messageCipher);
  const inbox = new MailInboxService(context, services.messaging, services.chatEvents);
  return async (mention: Mention, reply: InProcessReply) => {
    // Mail arrives authored by this agent and agents may mention it: only people send mail.
    if (mention.author_is_agent) return void (await reply.send('I send mail only for people.'));
    const request = emailRequestOf(mention.content);
    const chat = await context.store.chats.findById(mention.chat_id);
    if (chat === undefined) return undefined;
    const nowMs = context.config.now().getTime();
    if (/^(help|\?)$/i.test(request)) return void (await reply.send(emailAgentHelp));
    if (/^(list|mails?|inbox)?$/i.test(request)) return void (await reply.send(await listMails(services, chat)));
    if (/^cancel\b/i.test(request)) {
      const dropped = await drafts.take(chat.id, mention.author_id, nowMs);
      return void (await reply.send(dropped === undefined ? 'You have no draft waiting here.' : `Dropped your draft to ${dropped.to}. Nothing was sent.`));
    }
    if (/^(send|send it|confirm)[.!]?$/i.test(request)) {
      const draft = await drafts.take(chat.id, mention.author_id, nowMs);
      if (draft === undefined) return void (await reply.send('You have no draft waiting here (a draft is sent only by the person who asked for it, within 15 minutes).'));
      if (!(await context.rateLimits.allow(`email-sends:user:${mention.author_id}`, sentMailsPerUserPerHour))) {
        await draft.release();
        return void (await reply.send('You have sent many mails this hour; please try again later. Nothing was sent; your draft is kept until it expires.'));
      }
      const ownAddress = `${chat.email_address}@${context.config.mailDomain}`;
      const mail: OutgoingMail = {
        from: chatAddress(chat, context.config.mailDomain),
        to: draft.to,
        subject: draft.subject,
        text: draft.text,
        replyTo: ownAddress,
        ...(draft.inReplyTo === undefined ? {} : { inReplyTo: draft.inReplyTo }),
      };
      let queued: EnqueuedMail;
      try {
        queued = await context.mailQueue.enqueue(mail, { kind: 'email_agent' });
      } catch (error) {
        // Not even stored: the draft is not spent, the person may say `@email send` again.
        await draft.release();
        throw error;
      }
      context.logger.info({ chatId: chat.id, mailId: queued.id, toDomain: draft.to.split('@')[1] ?? '', state: queued.state }, queued.state === 'sent' ? 'mail sent by @email' : 'mail queued by @email');
      return void (await reply.send(queued.state === 'sent' ? sentAnswer(draft, ownAddress) : queuedAnswer(draft, ownAddress)));
    }
    if (/^reply\b/i.test(request)) return draftReply(request.replace(/^reply\b[:,]?\s*/i, ''));
    const to = recipientOf(request);
    if (to === undefined) {
      const keyed = ai !== undefined && (await ai.available(mention.author_id));
      if (/^(send|write|mail|draft)\b/i.test(request) || !keyed) {
        const hint = keyed ? '' : `\n\nDrafts work without a key; to talk with me in words, add a key. ${addKeyHint}`;
        return void (await reply.send(`Whom should I write to? Say, for example, \`@email send a summary of this chat to bob@example.com\`.\n\n${emailAgentHelp}${hint}`));
      }
      return fallback(mention, reply);
    }
    reply.status('is writing a draft…');
    let draft = templateDraft(mention);
    let note = `I had no AI key, so this draft lists the discussion’s latest messages. ${addKeyHint}`;
    if (ai !== undefined && (await ai.available(mention.author_id))) {
      try {
        const conversation = discussionOf(mention.context).map((message) => `${message.author_name}: ${message.content}`).join('\n');
        const answer = await ai.complete({
          invokerId: mention.author_id,
          system: composeInstructions,
          messages: [{ role: 'user', content: `Chat "${mention.chat_name}". Request by ${mention.author_name}: ${request}\n\nMessages:\n${conversation}` }],
        });
        const composed = parseDraft(answer.text);
        note = composed === undefined ? 'The model’s answer was not a usable mail, so this draft lists the latest messages.' : '';
        draft = composed ?? draft;
      } catch (error) {
        if (!(error instanceof AiError)) throw error;
        note = `${error.message} This draft lists the latest messages instead.`;
      }
    }
    return showDraft({ to, subject: draft.subject, text: draft.text }, note);

    /** '@email reply <what to say>': a draft to the sender of the chat's latest mail, in its thread. */
    async function draftReply(instructions: string): Promise<void> {
      const latest = await inbox.latestMail(chat!.id);
      const sender = latest === undefined ? undefined : recipientOf(latest.from);
      if (latest === undefined || sender === undefined) return void (await reply.send('This chat has received no mail to reply to yet.'));
      if (instructions === '') return void (await reply.send('What should I answer? Say, for example, `@email reply Thanks, we ship on Monday`.'));
      const subject = clip(/^re:/i.test(latest.subject) ? latest.subject : `Re: ${latest.subject || '(no subject)'}`, 120);
      let text = [`Hello,`, '', instructions, '', `— ${mention.chat_name}, sent by ${mention.author_name} from Confab`].join('\n');
      let replyNote = '';
      if (ai !== undefined && (await ai.available(mention.author_id))) {
        reply.status('is writing a reply…');
        try {
          const conversation = mention.context.map((message) => `${message.author_name}: ${message.content}`).join('\n');
          const answer = await ai.complete({
            invokerId: mention.author_id,
            system: composeInstructions,
            messages: [{ role: 'user', content: `Write a reply to the mail from ${latest.from} with the subject "${latest.subject}". What to answer, by ${mention.author_name}: ${instructions}\n\nThe chat (the mail is among these messages):\n${conversation}` }],
          });
          text = parseDraft(answer.text)?.text ?? text;
        } catch (error) {
          if (!(error instanceof AiError)) throw error;
          replyNote = `${error.message} This draft uses your words as they are.`;
        }
      }
      return showDraft({ to: sender, subject, text, ...(latest.messageId === undefined ? {} : { inReplyTo: latest.messageId }) }, replyNote);
    }

    async function showDraft(draft: Omit<EmailDraft, 'expiresAtMs'>, note: string): Promise<void> {
      await drafts.put(chat!.id, mention.author_id, { ...draft, expiresAtMs: nowMs + draftLifetimeMs }, nowMs);
      const to = draft.to;
      const shown = [
        `**Draft** to ${to} from ${chat!.email_address}@${context.config.mailDomain}. **Nothing is sent yet.**`,
        '',
        // A received subject is the outside world's text: shown inert, like the mail itself.
        `**Subject:** ${inertMailText(draft.subject)}`,
        '',
        quoted(draft.text),
        '',
        `${mention.author_name}, say \`@email send\` within 15 minutes to send it, or \`@email cancel\`.`,
        note,
      ];
      await reply.send(shown.filter((line, index) => line !== '' || index < shown.length - 1).join('\n').trim());
    }
  };
}

async function listMails(services: Services, chat: ChatRow): Promise<string> {
  const lastSeq = await services.messaging.lastSeq(chat.id);
  const rows = await services.context.store.messages.listBeforeSeq(chat.id, lastSeq + 1, 200);
  // Posted by the mail path itself: rows stored before the server owned message_type may say 'email' too.
  const mails = rows.filter((row) => row.message_type === 'email' && row.author_username === 'email').slice(-listMaximum);
  const address = `${chat.email_address}@${services.context.config.mailDomain}`;
  if (mails.length === 0) return `No mail yet. This chat receives mail at ${address}.`;
  const lines = mails.map((row) => {
    const content = services.messaging.decrypt(row);
    const from = /\*\*From:\*\* (.*)/.exec(content)?.[1] ?? '';
    const subject = /\*\*Subject:\*\* (.*)/.exec(content)?.[1] ?? '';
    return `- ${row.created.slice(0, 16).replace('T', ' ')} · ${clip(from, 80)} · ${clip(subject, 120)}`;
  });
  return [`The latest mails to ${address}:`, '', ...lines].join('\n');
}
