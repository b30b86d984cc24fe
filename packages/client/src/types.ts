/**
 * Typed records of spec §3, in the PocketBase record JSON shape the server answers with
 * (dates as 'YYYY-MM-DD HH:MM:SS.sssZ', empty single relations as '', empty multi as []).
 */

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
  /** Whether an OpenAI / Gemini key is stored (the key itself is never sent back). */
  openai_api_key_set?: boolean;
  gemini_api_key_set?: boolean;
  /** A masked hint of the stored key, e.g. 'sk-…abcd', when the server gives one. */
  openai_api_key_hint?: string;
  gemini_api_key_hint?: string;
}

/** Per-chat agent permissions: Confab agents are on unless false, developer agents off unless true. */
export interface AgentPermissions {
  confab_agents?: boolean;
  developer_agents?: boolean;
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
  expand?: { participants?: UserRecord[]; admins?: UserRecord[]; creator?: UserRecord };
}

export type MessageType = 'regular' | 'email' | 'search' | (string & {});

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
  expand?: { author?: UserRecord };
}

/** The message form the chat screens work with (spec §3 "Normalised form"). */
export interface NormalizedMessage {
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
  /** True when the author is an agent (spec §1: agent messages are marked as agent authors). */
  is_agent?: boolean;
}

/** Where an optimistic message stands: shown at once, confirmed by its new_message, or not. */
export type MessageStatus = 'pending' | 'sent' | 'failed';

/**
 * A message of the current chat as the store holds it. Confirmed messages carry the server's
 * seq; a pending or failed one has `seq: null`, `message_id` equal to its `client_id`, and sits
 * after every confirmed message.
 */
export interface ClientMessage extends NormalizedMessage {
  seq: number | null;
  status: MessageStatus;
  is_agent: boolean;
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

/** A message whose content is a JSON search result (spec §3 "Search result data"). */
export interface SearchResultsData {
  type: 'search_results';
  query_summary: string;
  total_results: number;
  searches_performed: number;
  created_at: string;
  metadata?: { truncated?: boolean; original_count?: number };
  results: SearchResultItem[];
}

export interface AgentRecord {
  id: string;
  name: string;
  username: string;
  description: string;
  agent_type: string;
  status: string;
  /** Defaults to true when unset. */
  site_wide_available?: boolean;
  dev_room_id?: string;
  api_key?: string;
  created_by?: string;
}

export type AgentSearchResult = Pick<
  AgentRecord,
  'id' | 'name' | 'username' | 'agent_type' | 'description' | 'status' | 'created_by'
>;

export interface FileRecord extends BaseRecord {
  file: string;
  description: string;
  uploaded_by: string;
  chat: string;
  expand?: { uploaded_by?: UserRecord };
}

export interface DropRecord {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  featured_image?: string;
  tags: string[];
  chat_id: string;
  chat_name: string;
  chat_avatar?: string;
  published_at: string;
  view_count: number;
  like_count: number;
  /** Minutes. */
  reading_time: number;
  is_liked: boolean;
  is_bookmarked: boolean;
}

export interface CreateDropInput {
  chat_id: string;
  title: string;
  content: string;
}

export interface DropListResponse {
  drops: DropRecord[];
  has_more: boolean;
  total_count: number;
}

export interface ChatDropsResponse {
  chat: { id?: string; name: string };
  drops: DropRecord[];
}

export interface ToggleLikeResponse {
  liked: boolean;
}

export interface ToggleBookmarkResponse {
  bookmarked: boolean;
}

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

/** GET /api/config (spec §7 Configuration). */
export interface AppConfig {
  api_base_url: string;
  websocket_url: string;
  environment: string;
  public_domain: string;
  /** Domain of chat and personal inbox addresses (confab-server's CONFAB_MAIL_DOMAIN); a compatible addition. */
  mail_domain?: string;
}
