import { replyLimits, type ReplyPreview } from '../protocol';
import { markdownToPlainText } from './plainText';

/**
 * The first line of a message as plain text, cut to `replyLimits.excerptLength` characters with an
 * ellipsis: what a reply quotes of its original. The server and the client's optimistic reply
 * make the same excerpt (docs/CONTRACTS.md, Replies).
 */
export function replyExcerpt(content: string): string {
  const firstLine = content.split('\n').find((line) => line.trim() !== '') ?? '';
  const text = markdownToPlainText(firstLine).trim();
  return text.length <= replyLimits.excerptLength ? text : `${text.slice(0, replyLimits.excerptLength - 1).trimEnd()}…`;
}

/** The preview of an original as a reply quotes it; a deleted one says only who wrote it. */
export function replyPreviewOf(original: { message_id: string; author_name: string; content: string; deleted: boolean }): ReplyPreview {
  if (original.deleted) return { message_id: original.message_id, author_name: original.author_name, excerpt: '', deleted: true };
  return { message_id: original.message_id, author_name: original.author_name, excerpt: replyExcerpt(original.content) };
}
