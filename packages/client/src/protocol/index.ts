/**
 * Wire types of the realtime WebSocket (spec §7 "Realtime messages"), shared by the client and
 * @confab/server through the `@confab/client/protocol` entry. Every frame is one JSON object
 * with a `type`. Types only: nothing here runs.
 *
 * Additions must stay backward compatible: new optional fields, new frame types that old peers
 * may ignore.
 */

/** The message as the gateway sends it (the spec's normalised message form). */
export interface WireMessage {
  message_id: string;
  chat_id: string;
  author_id: string;
  author_name: string;
  author_username: string;
  content: string;
  /** ISO 8601 / PocketBase datetime of creation. */
  created_at: string;
  message_type: 'regular' | 'email' | 'search' | (string & {});
  /** True when the author is an agent. */
  is_agent?: boolean;
}

// Client → server

export interface AuthenticateWithTokenFrame {
  type: 'authenticate_with_token';
  /** The record API's auth token (the same JWT the pocketbase SDK holds). */
  token: string;
}

export interface JoinChatFrame {
  type: 'join_chat';
  chat_id: string;
}

export interface SendMessageFrame {
  type: 'send_message';
  chat_id: string;
  content: string;
  /** Chosen by the sender and echoed in new_message: idempotent retries, optimistic UI. */
  client_id?: string;
}

export interface PingFrame {
  type: 'ping';
  /** Sender's clock in milliseconds since the epoch; echoed in pong. */
  timestamp: number;
}

export type ClientFrame = AuthenticateWithTokenFrame | JoinChatFrame | SendMessageFrame | PingFrame;

// Server → client

export interface AuthSuccessFrame {
  type: 'authSuccess';
  user_id?: string;
}

export interface AuthErrorFrame {
  type: 'authError';
  /** The spec does not show the content; a human-readable reason when present. */
  message?: string;
}

export interface NewMessageFrame {
  type: 'new_message';
  message: WireMessage;
  /** Echo of the send_message client_id that produced this message, if any. */
  client_id?: string;
}

export interface PongFrame {
  type: 'pong';
  /** The ping's timestamp, echoed. */
  timestamp?: number;
}

export interface ErrorFrame {
  type: 'error';
  message: string;
  /** A stable machine-readable code, e.g. 'not_authenticated', 'not_a_participant', 'invalid_frame'. */
  code?: string;
}

export type ServerFrame = AuthSuccessFrame | AuthErrorFrame | NewMessageFrame | PongFrame | ErrorFrame;

export type ClientFrameType = ClientFrame['type'];
export type ServerFrameType = ServerFrame['type'];
