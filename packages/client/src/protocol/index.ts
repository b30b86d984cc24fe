/**
 * Wire types of the realtime WebSocket (docs/PRODUCT.md §7 "Realtime messages"), and the answer
 * shapes of product endpoints both sides spell (at the end), shared by the client and
 * @confab/server through the `@confab/client/protocol` entry. Every frame is one JSON object with a
 * `type`. Types and a few constants only: no behaviour.
 *
 * Additions must stay backward compatible: new optional fields, new frame types that old peers
 * may ignore.
 */

import type { ChatRecord } from '../types';
import type { AgentClientFrame, AgentIdentity, AgentServerFrame } from './agents';
import type { DropPublishedFrame } from './drops';
import type { PresenceFrame, TypingFrame, TypingNoticeFrame } from './presence';
import type { NotifyLevel } from './notifications';
import type { AddReactionFrame, ReactionsChangedFrame, ReactionSummary, RemoveReactionFrame } from './reactions';
import type { MessageFile, SystemLine } from './announcements';

export type * from './agents';
export { agentLimits, agentNoticeTexts, apiKeyPrefix, interruptedReplyText } from './agents';
export type * from './drops';
export type * from './presence';
export { typingLimits } from './presence';
export type { MessageFile, SystemLine, SystemLineKind, SystemLinePerson } from './announcements';
export { systemLineKinds } from './announcements';
export type { ChartMessage } from './charts';
export { chartLimits } from './charts';
export { dropLimits, reservedDropSlugs } from './drops';
export type { NotifyLevel, NotifyLevelRequest, NotificationSettings, NotificationSettingsRequest } from './notifications';
export { notifyLevels, notificationPreviewLength, notificationRefusals } from './notifications';
export type * from './reactions';
export { reactionLimits, reactionTexts } from './reactions';

/**
 * What a message gains after it is sent (edits, deletion, reactions, replies) and what file
 * messages and system lines carry: the same optional fields on the wire and in the client's
 * normalised message.
 */
export interface MessageAfterwards {
  /** When the author last edited it; absent when never edited. */
  edited_at?: string;
  /** When it was deleted (its content is then ''); absent while it stands. */
  deleted_at?: string;
  /** Its reactions (docs/CONTRACTS.md, Reactions); absent when it has none. */
  reactions?: ReactionSummary[];
  /** How many times its reactions changed; absent while never. Newer summaries have higher versions. */
  reactions_version?: number;
  /**
   * The message this one replies to (docs/CONTRACTS.md, Replies): always the first message of its
   * thread, so threads are one level deep. Absent on a message that replies to nothing.
   */
  reply_to?: string;
  /** What the reply quotes of its original; present with reply_to. */
  reply_to_preview?: ReplyPreview;
  /** How many replies this message has; absent while it has none. */
  reply_count?: number;
  /** A file message's file (message_type 'file'); `deleted` once the file is gone. */
  file?: MessageFile;
  /** A system line's structured change (message_type 'system'). */
  system?: SystemLine;
  /**
   * An agent's streamed reply that broke off before its end (its AI provider failed or went
   * quiet): the text is what arrived. Absent on every whole reply and every other message.
   */
  cut_off?: true;
}

/** The message as the gateway sends it (the normalised message form of docs/PRODUCT.md §3). */
export interface WireMessage extends MessageAfterwards {
  message_id: string;
  chat_id: string;
  author_id: string;
  author_name: string;
  author_username: string;
  content: string;
  /** ISO 8601 / PocketBase datetime of creation. */
  created_at: string;
  message_type: 'regular' | 'email' | 'search' | 'file' | 'system' | (string & {});
  /** Per-chat sequence number (1, 2, 3 … without gaps) assigned by the server: the order of a chat. */
  seq: number;
  /** True when the author is an agent. */
  is_agent: boolean;
}


/** The compact quote a reply shows of its original: who wrote it and its first line. */
export interface ReplyPreview {
  message_id: string;
  author_name: string;
  /** The original's first line as plain text, at most replyLimits.excerptLength characters ('' once deleted). */
  excerpt: string;
  /** The original was deleted since: the reply stays and says "original deleted". */
  deleted?: true;
}

/** Limits of replies (docs/CONTRACTS.md, Replies). */
export const replyLimits = {
  /** The longest excerpt of an original in a reply's preview, in characters. */
  excerptLength: 120,
  /** The most messages of a thread a mention carries as context (the original and its latest replies). */
  threadContextMessages: 20,
} as const;

/**
 * Why a reply_to was refused: the field error of the record API's 400 (`data.reply_to`) and, after
 * 'reply_to: ', the socket's invalid_message. The same text whether the message does not exist,
 * is another chat's or was deleted, so nothing is learnt about other chats.
 */
export const replyToRefusedText = 'Must be a message of this chat.';

/** The chat record JSON as the record API returns it, participants and admins expanded. */
export type WireChat = ChatRecord;

// Client → server

export interface AuthenticateWithTokenFrame {
  type: 'authenticate_with_token';
  /** The record API's auth token (the same JWT the pocketbase SDK holds, client.pb.authStore). */
  token: string;
}

export interface JoinChatFrame {
  type: 'join_chat';
  chat_id: string;
  /**
   * Resume point: every message with seq > after_seq is replayed in order before `joined`.
   * Absent: live messages only.
   */
  after_seq?: number;
}

export interface LeaveChatFrame {
  type: 'leave_chat';
  chat_id: string;
}

export interface SendMessageFrame {
  type: 'send_message';
  chat_id: string;
  content: string;
  /** Chosen by the sender and echoed in new_message: idempotent retries, optimistic UI. */
  client_id?: string;
  /**
   * An agent's reply names the mention it answers (for the hop count): one of its own, in this
   * chat, from the last 10 minutes, else the message is refused (`invalid_message`). Ignored for people.
   */
  mention_id?: string;
  /**
   * Makes the message a reply (docs/CONTRACTS.md, Replies): a message of the same chat, else the
   * message is refused (`invalid_message`, naming reply_to). A reply to a reply joins its thread.
   */
  reply_to?: string;
}

export interface PingFrame {
  type: 'ping';
  /** Sender's clock in milliseconds since the epoch; echoed in pong. */
  timestamp: number;
}

/**
 * Moves the signed-in person's read position in a chat forward to `seq` (never back); every
 * session of theirs gets a read_state. The same as POST /api/chats/{id}/read.
 */
export interface MarkReadFrame {
  type: 'mark_read';
  chat_id: string;
  seq: number;
}

/** The author replaces the content of their message (people and agents alike). */
export interface EditMessageFrame {
  type: 'edit_message';
  message_id: string;
  content: string;
}

/** The author, or an admin of the chat, deletes a message. */
export interface DeleteMessageFrame {
  type: 'delete_message';
  message_id: string;
}

export type ClientFrame = EditMessageFrame | DeleteMessageFrame | AddReactionFrame | RemoveReactionFrame | AuthenticateWithTokenFrame | JoinChatFrame | LeaveChatFrame | SendMessageFrame | PingFrame | MarkReadFrame | TypingFrame | AgentClientFrame;

// Server → client

export interface AuthSuccessFrame {
  type: 'authSuccess';
  user_id?: string;
  /** Present when an agent authenticated with its API key. */
  agent?: AgentIdentity;
}

export interface AuthErrorFrame {
  type: 'authError';
  /** docs/PRODUCT.md does not give the content; a human-readable reason when present. */
  message?: string;
}

export interface NewMessageFrame {
  type: 'new_message';
  message: WireMessage;
  /** Echo of the send_message client_id that produced this message, if any. */
  client_id?: string;
  /** The streamed reply this message completes: it replaces that stream's placeholder. */
  stream_id?: string;
}

export interface PongFrame {
  type: 'pong';
  /** The ping's timestamp, echoed. */
  timestamp?: number;
}

/** Sent after a join_chat (and after its replay, if any). */
export interface JoinedFrame {
  type: 'joined';
  chat_id: string;
  /**
   * The last seq the replay delivered (or, joining without after_seq, the chat's highest; 0 for
   * an empty chat). When has_more is false, nothing up to the chat's newest message is missing.
   */
  last_seq: number;
  /** True when the replay stopped at its cap (500): page everything after last_seq through the record API. */
  has_more?: boolean;
}

export interface LeftFrame {
  type: 'left';
  chat_id: string;
}

/** The user was added to a chat. */
export interface ChatAddedFrame {
  type: 'chat_added';
  chat: WireChat;
}

/** A chat of the user changed (name, description, members, settings). */
export interface ChatUpdatedFrame {
  type: 'chat_updated';
  chat: WireChat;
}

/** The user was removed from the chat; their sockets have already left it. */
export interface ChatRemovedFrame {
  type: 'chat_removed';
  chat_id: string;
}

export interface ChatDeletedFrame {
  type: 'chat_deleted';
  chat_id: string;
}

/**
 * A file of one of the user's chats was uploaded or deleted (docs/CONTRACTS.md, Files), sent to
 * every participant's sockets: an open files panel loads the list again.
 */
export interface ChatFilesChangedFrame {
  type: 'chat_files_changed';
  chat_id: string;
  action: 'added' | 'deleted';
  file_id: string;
}

/**
 * The user's pending e-mail invitations changed: one arrived, or one was accepted or declined
 * (possibly in another tab). Sent to that user's sockets only; carries nothing, so a client loads
 * GET /api/my-invitations again.
 */
export interface InvitationsChangedFrame {
  type: 'invitations_changed';
}

/**
 * One person's read state of one chat (docs/CONTRACTS.md, Unread state): the answer of
 * POST /api/chats/{id}/read and /mute, the body of read_state, and fields of their chat records.
 */
export interface ChatReadState {
  chat_id: string;
  /** The highest seq this person has read; 0 when nothing. Joining a chat starts it at the chat's newest. */
  last_read_seq: number;
  /** Messages after last_read_seq. Posting moves the author's position, so their own never count. */
  unread_count: number;
  /** Of those, the ones that mention this person. */
  mention_count: number;
  /** A muted chat shows no count (a dot) and never notifies, except for mentions. */
  muted: boolean;
  /**
   * What notifies this person (docs/CONTRACTS.md, Notifications): 'mentions' (the default) or
   * 'all'. Optional for servers older than notifications; treat absent as 'mentions'.
   */
  notify_level?: NotifyLevel;
}

/** The person's read state of a chat changed (read in another tab, muted, or they posted): to all their sockets. */
export interface ReadStateFrame extends ChatReadState {
  type: 'read_state';
}

/**
 * A message was stored in one of the person's chats (sent to each participant but its author,
 * whether or not they joined the chat): the chat list's counts and order follow it live.
 */
export interface ChatActivityFrame {
  type: 'chat_activity';
  chat_id: string;
  seq: number;
  author_id: string;
  /** The chat's new `updated` (PocketBase datetime): the list is sorted by it. */
  updated: string;
  /** The message mentions the receiving person. */
  mentions_you: boolean;
  /**
   * True when this message should notify the receiving person (a mention or reply of them, or
   * any message of a chat they set to 'all' and did not mute); the fields below come with it, so
   * a browser notification needs no further request. Absent from older servers.
   */
  notify?: boolean;
  message_id?: string;
  /** The author's display name (their username when they have none). */
  author_name?: string;
  /** The message as short plain text (at most notificationPreviewLength characters). */
  preview?: string;
}

/**
 * A message of a joined chat changed: edited (edited_at set), or its reply_count moved because a
 * reply was stored. The whole message as it is now.
 */
export interface MessageUpdatedFrame {
  type: 'message_updated';
  message: WireMessage;
}

/** A message of a joined chat was deleted; it keeps its seq (so no gap), and shows nothing. */
export interface MessageDeletedFrame {
  type: 'message_deleted';
  chat_id: string;
  message_id: string;
  seq: number;
  deleted_at: string;
}

/** Stable codes of error frames. */
export const errorCodes = [
  'invalid_frame',
  'frame_too_large',
  'not_authenticated',
  'not_a_participant',
  'invalid_message',
  'rate_limited',
  'server_error',
  /** An agent posted (or streamed) into a chat where it holds no invocation. */
  'not_invoked',
  /** stream_append or stream_end for a stream this connection did not open, or that was closed. */
  'unknown_stream',
  /** A frame only agents (or only people) may send. */
  'not_allowed',
  /** add_reaction / remove_reaction refused: not one emoji, or too many different ones. */
  'invalid_reaction',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Any malformed or refused frame; the socket stays open except after frame_too_large (close 1009). */
export interface ErrorFrame {
  type: 'error';
  code: ErrorCode | (string & {});
  message: string;
  /** Identifies the refused frame when it carried one (e.g. the client_id of a send_message). */
  ref?: string;
}

export type ServerFrame =
  | AuthSuccessFrame
  | AuthErrorFrame
  | NewMessageFrame
  | MessageUpdatedFrame
  | MessageDeletedFrame
  | ReactionsChangedFrame
  | JoinedFrame
  | LeftFrame
  | ChatAddedFrame
  | ChatUpdatedFrame
  | ChatRemovedFrame
  | ChatDeletedFrame
  | ChatFilesChangedFrame
  | InvitationsChangedFrame
  | ReadStateFrame
  | ChatActivityFrame
  | PongFrame
  | ErrorFrame
  | AgentServerFrame
  | DropPublishedFrame
  | TypingNoticeFrame
  | PresenceFrame;

export type ClientFrameType = ClientFrame['type'];
export type ServerFrameType = ServerFrame['type'];

/** Close codes the server uses. */
export const closeCodes = {
  /** authError, or a password change revoked the session: do not reconnect with the same token. */
  authenticationFailed: 4001,
  /** frame_too_large. */
  messageTooBig: 1009,
  /**
   * The client read too slowly: more than the server buffers per socket was waiting for it. Reconnect
   * and join with after_seq; nothing is lost (docs/OPERATIONS.md, A client that stalls).
   */
  tooSlow: 4008,
} as const;

/** The largest frame the server accepts, in bytes (64 KiB). */
export const maxFrameBytes = 64 * 1024;

/** The longest message content the server accepts after trimming, in characters. */
export const maxMessageLength = 10_000;

/** The most messages a join_chat replays before answering joined with has_more. */
export const maxReplayMessages = 500;

// Invitation answers of the product endpoints (docs/CONTRACTS.md "Invitations and onboarding").
// Typed here once: the server types what it sends with them, the client what it reads.

/**
 * POST /api/invite-to-chat. An e-mail invitation answers `invited` whatever the address is (an
 * account, no account, or already in the chat), so the answer never tells who has an account.
 * A username (admins only, as docs/PRODUCT.md §6 gives inviting to chat admins) is added at once:
 * `added`.
 */
export type InviteResult = InviteInvitedResult | InviteAddedResult;

export interface InviteInvitedResult {
  success: true;
  status: 'invited';
  chat_id: string;
}

export interface InviteAddedResult {
  success: true;
  status: 'added';
  chat_id: string;
  user: { id: string; username: string; name: string };
}

/** GET /api/invitation/{token}: what a /join link leads to. */
export interface InvitationView {
  id: string;
  chat_id: string;
  chat: { id: string; name: string };
  /** The invited address ('' for share links). */
  email: string;
  link_type: 'shareable' | 'email';
  /** An account with the invited e-mail exists: the join screen asks it to sign in. */
  user_exists: boolean;
  expires_at: string;
}

/** One pending e-mail invitation of the signed-in user (GET /api/my-invitations). */
export interface PendingInvitation {
  id: string;
  chat: { id: string; name: string };
  /** Who invited; null when that account has been deleted since. */
  invited_by: { username: string; name: string } | null;
  /** PocketBase datetimes ('2026-01-01 12:00:00.000Z'). */
  created: string;
  expires_at: string;
}

/** GET /api/my-invitations: pending, unexpired, newest first. */
export interface MyInvitationsAnswer {
  invitations: PendingInvitation[];
}

/** POST /api/my-invitations/{id}/accept: the chat the user has joined. */
export interface AcceptedInvitationAnswer {
  chat_id: string;
}
