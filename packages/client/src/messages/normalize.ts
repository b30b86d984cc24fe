import type { WireMessage } from '../protocol';
import { displayNameOf } from '../records';
import type { ClientMessage, MessageRecord, UserRecord } from '../types';

/** Agent accounts are users whose type ends in '-agent' (developer-agent, confab-agent). */
export function isAgentUser(user: Pick<UserRecord, 'type'> | undefined): boolean {
  return user !== undefined && typeof user.type === 'string' && user.type.endsWith('-agent');
}

/** A record of the messages collection (author expanded) in the store's form. */
export function messageFromRecord(record: MessageRecord): ClientMessage {
  const author = record.expand?.author;
  const message: ClientMessage = {
    message_id: record.id,
    chat_id: record.chat,
    author_id: record.author,
    author_name: author === undefined ? '' : displayNameOf(author),
    author_username: author?.username ?? '',
    content: record.content ?? record.encryptedContent ?? '',
    created_at: record.created,
    message_type: record.message_type,
    seq: typeof record.seq === 'number' ? record.seq : null,
    status: 'sent',
    is_agent: isAgentUser(author),
  };
  if (record.client_id !== undefined && record.client_id !== '') message.client_id = record.client_id;
  if (record.edited_at !== undefined && record.edited_at !== '') message.edited_at = record.edited_at;
  if (record.deleted_at !== undefined && record.deleted_at !== '') message.deleted_at = record.deleted_at;
  if (record.reactions !== undefined && record.reactions.length > 0) message.reactions = record.reactions;
  if (typeof record.reactions_version === 'number' && record.reactions_version > 0) message.reactions_version = record.reactions_version;
  if (record.reply_to !== undefined && record.reply_to !== '') message.reply_to = record.reply_to;
  if (record.reply_to_preview !== undefined) message.reply_to_preview = record.reply_to_preview;
  if (typeof record.reply_count === 'number' && record.reply_count > 0) message.reply_count = record.reply_count;
  if (record.file !== undefined && record.file !== null) message.file = record.file;
  if (record.system !== undefined && record.system !== null) message.system = record.system;
  if (record.cut_off === true) message.cut_off = true;
  return message;
}

/** A new_message frame's message in the store's form (with the stream it completes, if any). */
export function messageFromWire(wire: WireMessage, clientId?: string, streamId?: string): ClientMessage {
  const message: ClientMessage = { ...wire, is_agent: wire.is_agent === true, status: 'sent' };
  if (clientId !== undefined && clientId !== '') message.client_id = clientId;
  if (streamId !== undefined && streamId !== '') message.stream_id = streamId;
  return message;
}
