/**
 * The WebSocket protocol of docs/CONTRACTS.md ("Chats and realtime"): client frames are parsed
 * and validated here, so the gateway only ever sees well-formed frames.
 */

import type { ErrorCode } from '@confab/client/protocol';

// The wire constants both sides share live in @confab/client/protocol: frames above maxFrameBytes
// get a `frame_too_large` error and close 1009 (closeCodes.messageTooBig).
export { closeCodes, maxFrameBytes } from '@confab/client/protocol';
export type { ErrorCode };

/** Replay on join_chat sends at most this many messages; the rest are paged through the record API. */
export const replayLimit = 500;

export type ClientFrame =
  | { type: 'authenticate_with_token'; token: string }
  | { type: 'join_chat'; chat_id: string; after_seq: number | undefined }
  | { type: 'leave_chat'; chat_id: string }
  | { type: 'send_message'; chat_id: string; content: string; client_id: string | undefined }
  | { type: 'ping'; timestamp: unknown };

export type ParseResult = { ok: true; frame: ClientFrame } | { ok: false; message: string; ref: string | undefined };

export function errorFrame(code: ErrorCode, message: string, ref?: string): string {
  return JSON.stringify(ref === undefined ? { type: 'error', code, message } : { type: 'error', code, message, ref });
}

const failure = (message: string, ref?: string): ParseResult => ({ ok: false, message, ref });

function requiredString(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
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
      return { ok: true, frame: { type, chat_id: chatId, after_seq: typeof afterSeq === 'number' ? afterSeq : undefined } };
    }
    case 'leave_chat':
      return chatId === undefined ? failure('chat_id must be a non-empty string', type) : { ok: true, frame: { type, chat_id: chatId } };
    case 'send_message': {
      const clientId = record['client_id'];
      const ref = typeof clientId === 'string' ? clientId : type;
      if (chatId === undefined) return failure('chat_id must be a non-empty string', ref);
      if (typeof record['content'] !== 'string') return failure('content must be a string', ref);
      if (clientId !== undefined && clientId !== null && typeof clientId !== 'string') return failure('client_id must be a string', type);
      const client_id = typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
      return { ok: true, frame: { type, chat_id: chatId, content: record['content'], client_id } };
    }
    case 'ping':
      return { ok: true, frame: { type, timestamp: record['timestamp'] ?? null } };
    default:
      return failure(`unknown frame type '${type.slice(0, 64)}'`, undefined);
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
