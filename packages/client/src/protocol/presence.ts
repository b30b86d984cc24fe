/**
 * Typing and presence frames (docs/CONTRACTS.md, Typing and presence). Neither is stored nor
 * replayed: a client that joins or reconnects learns who is online from
 * GET /api/chats/{id}/presence and sees typing again with the next frame.
 */

/** Wire timings both sides keep to, in milliseconds. */
export const typingLimits = {
  /** A client sends at most one typing frame per chat in this time while the text changes. */
  sendIntervalMs: 3_000,
  /** The server drops a person's further typing frames of one chat within this time. */
  serverIntervalMs: 2_500,
  /** A typist shown without a new frame for this long is cleared. */
  expiryMs: 6_000,
} as const;

/** Client → server: the signed-in person (never an agent) is typing in a chat they joined. */
export interface TypingFrame {
  type: 'typing';
  chat_id: string;
}

/** Who is typing, as a typing frame names them. */
export interface Typist {
  user_id: string;
  username: string;
  /** Display name; '' when the person set none. */
  name: string;
}

/** Server → client: to the chat's joined sockets, the typist's own sockets left out. */
export interface TypingNoticeFrame extends Typist {
  type: 'typing';
  chat_id: string;
}

/**
 * Server → client: a person came online (their first socket on any instance) or went offline
 * (their last one closed), sent to every socket of every person sharing a chat with them.
 */
export interface PresenceFrame {
  type: 'presence';
  user_id: string;
  online: boolean;
}

/** GET /api/chats/{id}/presence (participants only): the participants online now. */
export interface ChatPresenceAnswer {
  chat_id: string;
  online: string[];
}
