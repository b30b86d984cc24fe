import { notificationPreviewLength } from '../protocol/notifications';
import { markdownToPlainText } from './plainText';

/**
 * A message as a notification shows it: plain text on one line, at most
 * `notificationPreviewLength` characters, cut at a word where one is near and ended with '…'.
 * The server and the fake backend both use it, so previews read alike.
 *
 * @example
 * notificationPreviewOf('**@bob** can you look?'); // '@bob can you look?'
 */
export function notificationPreviewOf(content: string, maximumLength: number = notificationPreviewLength): string {
  const text = markdownToPlainText(content);
  if (text.length <= maximumLength) return text;
  const cut = text.slice(0, maximumLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maximumLength / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
