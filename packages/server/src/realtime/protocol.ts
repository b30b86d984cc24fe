/**
 * The WebSocket protocol of docs/CONTRACTS.md ("Chats and realtime"): client frames are parsed
 * and validated here, so the gateway only ever sees well-formed frames.
 */

import { maxReplayMessages, type ClientFrame, type ErrorCode, type ErrorFrame, type SendMessageFrame, type ServerFrame, type StreamStartFrame } from '@confab/client/protocol';

// The wire constants both sides share live in @confab/client/protocol: frames above maxFrameBytes
// get a `frame_too_large` error and close 1009 (closeCodes.messageTooBig).
export { closeCodes, maxFrameBytes } from '@confab/client/protocol';
export type { ErrorCode };

/** Replay on join_chat sends at most this many messages; the rest are paged through the record API. */
export const replayLimit = maxReplayMessages;

/** Client frames as the wire contract types them (`@confab/client/protocol`), once for both sides. */
export type { ClientFrame };

export type ParseResult = { ok: true; frame: ClientFrame } | { ok: false; message: string; ref: string | undefined };

/** Every frame the server sends is one of the contract's ServerFrames, encoded here. */
export function encodeFrame(frame: ServerFrame): string {
  return JSON.stringify(frame);
}

export function errorFrame(code: ErrorCode, message: string, ref?: string): string {
  const frame: ErrorFrame = ref === undefined ? { type: 'error', code, message } : { type: 'error', code, message, ref };
  return encodeFrame(frame);
}

const failure = (message: string, ref?: string): ParseResult => ({ ok: false, message, ref });

function requiredString(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An optional string field: undefined when absent or null, false when present with another type. */
function optionalString(record: Record<string, unknown>, field: string): string | undefined | false {
  const value = record[field];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : false;
}

function parseFields(type: string, record: Record<string, unknown>): ParseResult {
  const chatId = requiredString(record, 'chat_id');
  switch (type) {
    case 'authenticate_with_token': {
      const token = requiredString(record, 'token');
      return token === undefined ? failure('token must be a non-empty string', type) : { ok: true, frame: { type, token } };
    }
    case 'join_chat': {
      if (chatId === undefined) return failure('chat_id must be a non-empty string', type);
      const afterSeq = record['after_seq'];
      if (afterSeq !== undefined && afterSeq !== null && !(Number.isSafeInteger(afterSeq) && (afterSeq as number) >= 0)) {
        return failure('after_seq must be a non-negative integer', chatId);
      }
      return { ok: true, frame: typeof afterSeq === 'number' ? { type, chat_id: chatId, after_seq: afterSeq } : { type, chat_id: chatId } };
    }
    case 'typing':
      return chatId === undefined ? failure('chat_id must be a non-empty string', type) : { ok: true, frame: { type, chat_id: chatId } };
    case 'leave_chat':
      return chatId === undefined ? failure('chat_id must be a non-empty string', type) : { ok: true, frame: { type, chat_id: chatId } };
    case 'edit_message': {
      const messageId = requiredString(record, 'message_id');
      if (messageId === undefined) return failure('message_id must be a non-empty string', type);
      if (typeof record['content'] !== 'string') return failure('content must be a string', messageId);
      return { ok: true, frame: { type, message_id: messageId, content: record['content'] } };
    }
    case 'delete_message': {
      const messageId = requiredString(record, 'message_id');
      return messageId === undefined ? failure('message_id must be a non-empty string', type) : { ok: true, frame: { type, message_id: messageId } };
    }
    case 'add_reaction':
    case 'remove_reaction': {
      const messageId = requiredString(record, 'message_id');
      if (messageId === undefined) return failure('message_id must be a non-empty string', type);
      if (typeof record['emoji'] !== 'string') return failure('emoji must be a string', messageId);
      return { ok: true, frame: { type, message_id: messageId, emoji: record['emoji'] } };
    }
    case 'mark_read': {
      if (chatId === undefined) return failure('chat_id must be a non-empty string', type);
      const seq = record['seq'];
      if (!(Number.isSafeInteger(seq) && (seq as number) >= 0)) return failure('seq must be a non-negative integer', chatId);
      return { ok: true, frame: { type, chat_id: chatId, seq: seq as number } };
    }
    case 'send_message': {
      const clientId = record['client_id'];
      const ref = typeof clientId === 'string' ? clientId : type;
      if (chatId === undefined) return failure('chat_id must be a non-empty string', ref);
      if (typeof record['content'] !== 'string') return failure('content must be a string', ref);
      if (clientId !== undefined && clientId !== null && typeof clientId !== 'string') return failure('client_id must be a string', type);
      const mentionId = optionalString(record, 'mention_id');
      if (mentionId === false) return failure('mention_id must be a string', ref);
      const replyTo = optionalString(record, 'reply_to');
      if (replyTo === false) return failure('reply_to must be a string', ref);
      const frame: SendMessageFrame = { type, chat_id: chatId, content: record['content'] };
      if (typeof clientId === 'string' && clientId !== '') frame.client_id = clientId;
      if (mentionId !== undefined) frame.mention_id = mentionId;
      if (replyTo !== undefined && replyTo !== '') frame.reply_to = replyTo;
      return { ok: true, frame };
    }
    case 'authenticate_with_api_key': {
      const apiKey = requiredString(record, 'api_key');
      return apiKey === undefined ? failure('api_key must be a non-empty string', type) : { ok: true, frame: { type, api_key: apiKey } };
    }
    case 'mention_ack': {
      const mentionId = requiredString(record, 'mention_id');
      return mentionId === undefined ? failure('mention_id must be a non-empty string', type) : { ok: true, frame: { type, mention_id: mentionId } };
    }
    case 'stream_start': {
      const streamId = requiredString(record, 'stream_id');
      if (streamId === undefined) return failure('stream_id must be a non-empty string', type);
      if (chatId === undefined) return failure('chat_id must be a non-empty string', streamId);
      const mentionId = optionalString(record, 'mention_id');
      if (mentionId === false) return failure('mention_id must be a string', streamId);
      const replyTo = optionalString(record, 'reply_to');
      if (replyTo === false) return failure('reply_to must be a string', streamId);
      const frame: StreamStartFrame = { type, chat_id: chatId, stream_id: streamId };
      if (mentionId !== undefined) frame.mention_id = mentionId;
      if (replyTo !== undefined && replyTo !== '') frame.reply_to = replyTo;
      return { ok: true, frame };
    }
    case 'stream_append': {
      const streamId = requiredString(record, 'stream_id');
      if (streamId === undefined) return failure('stream_id must be a non-empty string', type);
      if (typeof record['text'] !== 'string') return failure('text must be a string', streamId);
      return { ok: true, frame: { type, stream_id: streamId, text: record['text'] } };
    }
    case 'stream_end': {
      const streamId = requiredString(record, 'stream_id');
      return streamId === undefined ? failure('stream_id must be a non-empty string', type) : { ok: true, frame: { type, stream_id: streamId } };
    }
    case 'agent_status': {
      if (chatId === undefined) return failure('chat_id must be a non-empty string', type);
      if (typeof record['text'] !== 'string') return failure('text must be a string', chatId);
      return { ok: true, frame: { type, chat_id: chatId, text: record['text'] } };
    }
    case 'ping':
      // Echoed in pong exactly as sent (clients use numbers; the server does not interpret it).
      return { ok: true, frame: { type, timestamp: (record['timestamp'] ?? null) as number } };
    default:
      return failure(`unknown frame type '${type.slice(0, 64)}'`, undefined);
  }
}

/** What an error about this frame names as `ref`: the id its sender will look for. */
export function refOf(frame: ClientFrame): string {
  switch (frame.type) {
    case 'send_message':
      return frame.client_id ?? frame.type;
    case 'join_chat':
    case 'leave_chat':
    case 'mark_read':
    case 'agent_status':
    case 'typing':
      return frame.chat_id;
    case 'stream_start':
    case 'stream_append':
    case 'stream_end':
      return frame.stream_id;
    case 'mention_ack':
      return frame.mention_id;
    case 'edit_message':
    case 'delete_message':
      return frame.message_id;
    default:
      return frame.type;
  }
}

/** Parses one text frame; every way it can be wrong has its own clear message. */
export function parseClientFrame(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure('frame is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return failure('frame must be a JSON object');
  const record = value as Record<string, unknown>;
  if (typeof record['type'] !== 'string') return failure('frame has no string "type"');
  return parseFields(record['type'], record);
}
