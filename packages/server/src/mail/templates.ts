import { escapeHtml, type OutgoingMail } from './transport';

export function passwordResetMail(options: { to: string; from: string; username: string; link: string }): OutgoingMail {
  const text = [
    `Hello ${options.username},`,
    '',
    'Someone asked to reset the password of your Confab account. To choose a new password, open:',
    '',
    options.link,
    '',
    'The link works once and expires in 1 hour. If you did not ask for this, ignore this mail.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(options.username)},</p>`,
    '<p>Someone asked to reset the password of your Confab account.</p>',
    `<p><a href="${escapeHtml(options.link)}">Choose a new password</a></p>`,
    '<p>The link works once and expires in 1 hour. If you did not ask for this, ignore this mail.</p>',
  ].join('\n');
  return { to: options.to, from: options.from, subject: 'Reset your Confab password', text, html };
}

/**
 * To every address invited to a chat, account or not: the same words and a /join/{token} link,
 * nothing about an account (the mail must not tell more than the invite-to-chat answer does).
 * Every user-supplied value is escaped in HTML.
 */
export function chatInvitationMail(options: { to: string; from: string; inviterName: string; chatName: string; link: string }): OutgoingMail {
  const text = [
    'Hello,',
    '',
    `${options.inviterName} invited you to the chat "${options.chatName}" on Confab. To join, open:`,
    '',
    options.link,
    '',
    'The link expires in 7 days. If you did not expect this, ignore this mail.',
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(options.inviterName)} invited you to the chat &quot;${escapeHtml(options.chatName)}&quot; on Confab.</p>`,
    `<p><a href="${escapeHtml(options.link)}">Join the chat</a></p>`,
    '<p>The link expires in 7 days. If you did not expect this, ignore this mail.</p>',
  ].join('\n');
  return { to: options.to, from: options.from, subject: 'You are invited to a chat on Confab', text, html };
}
