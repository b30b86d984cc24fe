import { escapeHtml, type OutgoingMail } from './transport';

/** One mentioning message as the mail lists it. */
export interface MissedMessageLine {
  authorName: string;
  /** Plain text (markup removed). */
  text: string;
  /** When it was sent, e.g. '2026-03-02 14:05 UTC'. */
  time: string;
}

/**
 * The missed-mention mail (docs/CONTRACTS.md, Notifications): one per person and chat, every
 * waiting mention and reply in it, a link to the chat at the first, and an unsubscribe link (also
 * sent as List-Unsubscribe). Every user-supplied value is escaped in HTML.
 */
export function missedMentionsMail(options: {
  to: string;
  from: string;
  personName: string;
  chatName: string;
  messages: readonly MissedMessageLine[];
  chatLink: string;
  unsubscribeLink: string;
}): OutgoingMail {
  const count = options.messages.length;
  const subject = count === 1 ? `You were mentioned in "${options.chatName}"` : `${count} messages for you in "${options.chatName}"`;
  const text = [
    `Hello ${options.personName},`,
    '',
    `${count === 1 ? 'A message mentions or answers you' : `${count} messages mention or answer you`} in "${options.chatName}" on Confab and you have not read ${count === 1 ? 'it' : 'them'} yet:`,
    '',
    ...options.messages.flatMap((message) => [`${message.authorName} (${message.time}):`, message.text, '']),
    `Open the chat: ${options.chatLink}`,
    '',
    `To stop these mails, open ${options.unsubscribeLink} or turn them off in My Profile.`,
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(options.personName)},</p>`,
    `<p>${count === 1 ? 'A message mentions or answers you' : `${count} messages mention or answer you`} in &quot;${escapeHtml(options.chatName)}&quot; on Confab and you have not read ${count === 1 ? 'it' : 'them'} yet:</p>`,
    ...options.messages.map(
      (message) => `<p><strong>${escapeHtml(message.authorName)}</strong> <small>(${escapeHtml(message.time)})</small><br>${escapeHtml(message.text)}</p>`,
    ),
    `<p><a href="${escapeHtml(options.chatLink)}">Open the chat</a></p>`,
    `<p><small><a href="${escapeHtml(options.unsubscribeLink)}">Stop these mails</a>, or turn them off in My Profile.</small></p>`,
  ].join('\n');
  return { to: options.to, from: options.from, subject, text, html, unsubscribeUrl: options.unsubscribeLink };
}
