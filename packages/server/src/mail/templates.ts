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
  return { to: options.to, from: options.from, subject: 'Reset your Confab password', text, html, link: options.link };
}
