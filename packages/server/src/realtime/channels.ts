/**
 * Bus channels and the events on them. Frames are serialised once by whoever publishes, so
 * every instance forwards the same text to its sockets without encoding it again.
 */

export const chatChannel = (chatId: string): string => `chat:${chatId}`;
export const userChannel = (userId: string): string => `user:${userId}`;

/**
 * On `chat:<id>`: a stored message, as its ready `new_message` frame. `stored_at_ms`: when the
 * publishing instance stored it (its clock, epoch ms), for the fan-out latency metric; an
 * instance of an older version sends none, and the frame goes out the same.
 */
export interface MessageEvent {
  kind: 'message';
  chat_id: string;
  seq: number;
  frame: string;
  stored_at_ms?: number;
}

/** On `user:<id>`: a chat-list frame; `detach` makes that user's sockets leave the chat at once. */
export interface ChatListEvent {
  kind: 'chat_list';
  chat_id: string;
  frame: string;
  detach: boolean;
}

/** On `user:<id>`: the user's tokens were revoked (password change); close their sockets. */
export interface RevokeEvent {
  kind: 'revoke';
}

/** On `user:<id>`: a ready frame for every socket of that user (a mention for an agent, a notice, presence). */
export interface UserFrameEvent {
  kind: 'frame';
  frame: string;
}

/**
 * On `chat:<id>`: a frame for the chat's joined sockets outside the message sequence (a streamed
 * reply's progress, an agent's status); the reply's final message travels as a MessageEvent.
 */
export interface ChatFrameEvent {
  kind: 'chat_frame';
  chat_id: string;
  frame: string;
  /** Not sent to this user's sockets (a typing frame never goes back to the typist). */
  skip_user_id?: string;
}

export type ChatEvent = MessageEvent | ChatFrameEvent;
export type UserEvent = ChatListEvent | RevokeEvent | UserFrameEvent;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function isMessageEvent(value: unknown): value is MessageEvent {
  return isObject(value) && value['kind'] === 'message' && typeof value['seq'] === 'number' && typeof value['frame'] === 'string';
}

export function isChatFrameEvent(value: unknown): value is ChatFrameEvent {
  return isObject(value) && value['kind'] === 'chat_frame' && typeof value['frame'] === 'string';
}

export function isUserEvent(value: unknown): value is UserEvent {
  if (!isObject(value)) return false;
  if (value['kind'] === 'revoke') return true;
  if (value['kind'] === 'frame') return typeof value['frame'] === 'string';
  return value['kind'] === 'chat_list' && typeof value['chat_id'] === 'string' && typeof value['frame'] === 'string';
}
