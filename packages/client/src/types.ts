/**
 * Typed records of docs/PRODUCT.md §3, in the PocketBase record JSON shape the server answers with
 * (dates as 'YYYY-MM-DD HH:MM:SS.sssZ', empty single relations as '', empty multi as []).
 */

import type { AgentNoticeReason, AgentRef, AgentSearchHit, AgentView } from './protocol/agents';
import type { NotifyLevel } from './protocol/notifications';
import type { BookmarkAnswer, ChatDropsAnswer, DropListAnswer, LikeAnswer, WireDrop } from './protocol/drops';
import type { ReactionSummary } from './protocol/reactions';
import type { MessageAfterwards, ReplyPreview } from './protocol';
import type { MessageFile, SystemLine } from './protocol/announcements';

/** Fields every record of the record API carries. */
export interface BaseRecord {
  id: string;
  collectionId?: string;
  collectionName?: string;
  created: string;
  updated: string;
}

/** `(string & {})` keeps autocomplete for the known values while allowing others. */
export type UserType = 'user' | 'developer-agent' | 'confab-agent' | 'other' | (string & {});

export interface UserRecord extends BaseRecord {
  username: string;
  name: string;
  /** Only present on the caller's own record (the server never shows it to others). */
  email?: string;
  type: UserType;
  created_by?: string;
  site_wide_available?: boolean;
  dev_room_id?: string;
  api_key?: string;
  openai_api_key_encrypted?: string;
  gemini_api_key_encrypted?: string;
  soft_registered?: boolean;
  signup_completed?: boolean;
  /** True for server admins (the first account, and those `confab-server admin add` names); only on the caller's own record. */
  is_admin?: boolean;
  /** Whether an OpenAI / Gemini key is stored (the key itself is never sent back). */
  openai_api_key_set?: boolean;
  gemini_api_key_set?: boolean;
  /** A masked hint of the stored key, e.g. 'sk-…abcd', when the server gives one. */
  openai_api_key_hint?: string;
  gemini_api_key_hint?: string;
  /** Tokens hosted agents' AI calls used for this person (whichever key paid); only on the caller's own record. */
  ai_tokens_used?: number;
}

/** Per-chat agent permissions: Confab agents are on unless false, developer agents off unless true. */
export interface AgentPermissions {
  confab_agents?: boolean;
  developer_agents?: boolean;
  /**
   * Whether agents may ask @data and @deep, which read the chat's files: off unless true. People
   * always may; an agent's mention of them is otherwise not routed (docs/SECURITY.md G12).
   */
  agents_may_read_files?: boolean;
}

export interface ChatRecord extends BaseRecord {
  name: string;
  description: string;
  creator: string;
  participants: string[];
  admins: string[];
  email_address?: string;
  is_inbox?: boolean;
  auto_route_enabled?: boolean;
  auto_route_agent?: string;
  agent_permissions?: AgentPermissions | null;
  /** The chat's newest message seq (0 when empty). */
  last_seq?: number;
  // The signed-in person's read state (record API answers only; docs/CONTRACTS.md, Unread state).
  /** The highest seq they have read. */
  last_read_seq?: number;
  /** Messages after last_read_seq. */
  unread_count?: number;
  /** Of those, the ones mentioning them. */
  mention_count?: number;
  /** Muted: a dot instead of a count, no notifications except mentions. */
  muted?: boolean;
  /** What notifies them: 'mentions' (the default) or 'all' messages (docs/CONTRACTS.md, Notifications). */
  notify_level?: NotifyLevel;
  expand?: { participants?: UserRecord[]; admins?: UserRecord[]; creator?: UserRecord };
}

export type MessageType = 'regular' | 'email' | 'search' | 'file' | 'system' | (string & {});

export interface MessageRecord extends BaseRecord {
  chat: string;
  author: string;
  /** Written on create; members read it back as plain text (encrypted only at rest). */
  encryptedContent?: string;
  content?: string;
  message_type: MessageType;
  /** Per-chat order (1, 2, 3 … without gaps), assigned by the server. */
  seq?: number;
  /** The sender's send_message client_id, '' when none. */
  client_id?: string;
  /** The last edit's datetime, '' when never edited. */
  edited_at?: string;
  /** When it was deleted, '' while it stands. */
  deleted_at?: string;
  /** Its reactions, [] when none (docs/CONTRACTS.md, Reactions). */
  reactions?: ReactionSummary[];
  /** How many times its reactions changed. */
  reactions_version?: number;
  /** The first message of the thread it replies to, '' when none (docs/CONTRACTS.md, Replies). */
  reply_to?: string;
  /** What it quotes of its original; present on replies. */
  reply_to_preview?: ReplyPreview;
  /** How many replies it has. */
  reply_count?: number;
  /** A file message's file; null on other messages (docs/CONTRACTS.md, File messages and system lines). */
  file?: MessageFile | null;
  /** A system line's change; null on other messages. */
  system?: SystemLine | null;
  /** An agent's streamed reply that broke off before its end; absent otherwise. */
  cut_off?: boolean;
  expand?: { author?: UserRecord };
}

/** The message form the chat screens work with (docs/PRODUCT.md §3 "Normalised form"). */
export interface NormalizedMessage extends MessageAfterwards {
  message_id: string;
  chat_id: string;
  author_id: string;
  author_name: string;
  author_username: string;
  content: string;
  created_at: string;
  message_type: MessageType;
  /** Echo of send_message's client_id, for optimistic messages and idempotent retries. */
  client_id?: string;
  /** True when the author is an agent (docs/PRODUCT.md §1: agent messages are marked as agent authors). */
  is_agent?: boolean;
}

/**
 * Where a message stands: an optimistic one is shown at once ('pending'), confirmed by its
 * new_message ('sent'), or not ('failed'); 'streaming' is an agent's reply still growing (a
 * placeholder until the final new_message with its stream_id replaces it).
 */
export type MessageStatus = 'pending' | 'sent' | 'failed' | 'streaming';

/**
 * A message of the current chat as the store holds it. Confirmed messages carry the server's
 * seq; a pending or failed one has `seq: null`, `message_id` equal to its `client_id`, and sits
 * after every confirmed message. A streaming placeholder also has `seq: null` (and no client_id):
 * its `message_id` is `stream:<stream_id>`.
 */
export interface ClientMessage extends NormalizedMessage {
  seq: number | null;
  status: MessageStatus;
  is_agent: boolean;
  /** A streamed agent reply: on the growing placeholder, and on the final message that replaces it. */
  stream_id?: string;
}

/**
 * The thread open beside the chat (docs/CONTRACTS.md, Replies): its original and the replies
 * loaded for it. Replies that arrive live or are being sent are in store.messages (they are
 * ordinary messages of the chat); `threadReplies` in chat-ui merges both.
 */
export interface ThreadState {
  chat_id: string;
  original_id: string;
  /** The original, once known (from the open chat's messages or loaded); null while loading or when not found. */
  original: ClientMessage | null;
  /** Its replies as loaded when the thread opened, in seq order. */
  replies: ClientMessage[];
  loading: boolean;
  /** The message of a failed load, null otherwise. */
  error: string | null;
}

/** An agent's status line in the open chat ('@deep is searching…'), until its reply ends. */
export interface AgentStatusLine {
  chat_id: string;
  agent: AgentRef;
  /** The agent's own words, e.g. 'is searching…'; never empty (an empty status clears the line). */
  text: string;
}

/**
 * What happened to a mention in one of the user's messages (the agent is offline, agents of that
 * kind are off here, …): shown to this user only, as a system message after that message, and
 * never stored.
 */
export interface AgentNotice {
  /** Local id: `<message_id>:<agent_username>:<reason>` (a repeat of the same notice is dropped). */
  id: string;
  chat_id: string;
  /** The message the notice is about. */
  message_id: string;
  agent_username: string;
  reason: AgentNoticeReason;
  text: string;
  /** When this client received it (ISO 8601). */
  received_at: string;
}

export interface SearchResultItem {
  title: string;
  url: string;
  domain: string;
  snippet: string;
  rank: number;
  relevance_score?: number;
  source_query?: string;
}

/** A message whose content is a JSON search result (docs/PRODUCT.md §3 "Search result data"). */
export interface SearchResultsData {
  type: 'search_results';
  query_summary: string;
  total_results: number;
  searches_performed: number;
  created_at: string;
  metadata?: { truncated?: boolean; original_count?: number };
  results: SearchResultItem[];
}

/**
 * An agent as the agent endpoints answer (GET /api/agents/mine and friends): the protocol's
 * AgentView. Kept under this name for code written before the agents issue.
 */
export type AgentRecord = AgentView;

/** The agent search result form of docs/PRODUCT.md §3 (Agent): the protocol's AgentSearchHit. */
export type AgentSearchResult = AgentSearchHit;

export interface FileRecord extends BaseRecord {
  file: string;
  description: string;
  uploaded_by: string;
  chat: string;
  expand?: { uploaded_by?: UserRecord };
}

/** A drop (docs/PRODUCT.md §3) as the drops endpoints answer: the protocol's WireDrop, under its older name. */
export type DropRecord = WireDrop;

/** POST /api/drops (docs/PRODUCT.md §3 creation payload); title and content are trimmed before sending. */
export interface CreateDropInput {
  chat_id: string;
  title: string;
  content: string;
}

/** A page of drops (docs/PRODUCT.md §3 Drop list response): the protocol's DropListAnswer. */
export type DropListResponse = DropListAnswer;

/** GET /api/drops/chat/{id} (docs/PRODUCT.md §3 Chat drops response): the protocol's ChatDropsAnswer. */
export type ChatDropsResponse = ChatDropsAnswer;

/** POST /api/drops/{id}/like (docs/PRODUCT.md §3 Toggle responses): the protocol's LikeAnswer. */
export type ToggleLikeResponse = LikeAnswer;

/** POST /api/drops/{id}/bookmark: the protocol's BookmarkAnswer. */
export type ToggleBookmarkResponse = BookmarkAnswer;

export interface InvitationRecord {
  /** A chat id, or the expanded chat with its name. */
  chat_id: string | { id: string; name: string };
  email?: string;
  /** 'shareable' for share links; anything else is an e-mail invitation. */
  link_type: 'shareable' | (string & {});
}

export interface ShareLinkResponse {
  share_url: string;
}

export interface ShareLinkJoinResponse {
  success: boolean;
  temp_password?: string;
  username?: string;
  chat_id: string;
}

/** GET /api/config (docs/PRODUCT.md §7 Configuration). */
export interface AppConfig {
  api_base_url: string;
  websocket_url: string;
  environment: string;
  public_domain: string;
  /** Domain of chat and personal inbox addresses (confab-server's CONFAB_MAIL_DOMAIN); a compatible addition. */
  mail_domain?: string;
  /**
   * Image extensions this server's operator added to the upload allow-list ('.png', …;
   * CONFAB_UPLOAD_EXTENSIONS); absent or [] when none. A compatible addition.
   */
  upload_extensions?: string[];
}
