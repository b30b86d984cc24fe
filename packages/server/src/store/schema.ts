import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Portable across SQLite and PostgreSQL: ids and timestamps are TEXT
 * (`YYYY-MM-DD HH:MM:SS.sssZ`, UTC), booleans INTEGER 0/1, JSON as TEXT.
 */

export interface UsersTable {
  id: string;
  username: string;
  name: string;
  email: string;
  email_visibility: number;
  verified: number;
  password_hash: string;
  /** Part of the JWT signing key: rotating it invalidates every earlier token of the user. */
  token_key: string;
  is_admin: number;
  type: string;
  description: string;
  created_by: string | null;
  site_wide_available: number | null;
  dev_room_id: string | null;
  api_key_hash: string | null;
  openai_api_key_encrypted: string;
  gemini_api_key_encrypted: string;
  soft_registered: number;
  signup_completed: number;
  /** Missed-mention mails on (1) or off (0) (migration 017). */
  email_notifications: Generated<number>;
  created: string;
  updated: string;
}

export interface ChatsTable {
  id: string;
  name: string;
  description: string;
  creator: string | null;
  email_address: string;
  is_inbox: number;
  auto_route_enabled: number;
  auto_route_agent: string;
  /** JSON text: {confab_agents?: boolean, developer_agents?: boolean} or NULL. */
  agent_permissions: string | null;
  /** Seq of the chat's latest message; bumped inside each message insert. */
  last_seq: Generated<number>;
  created: string;
  updated: string;
}

/** Join rows of a multi relation; `position` keeps the order the client gave. */
export interface ChatMembersTable {
  chat_id: string;
  user_id: string;
  position: number;
}

export interface MessagesTable {
  id: string;
  chat: string;
  author: string;
  /** `v1:` + base64(nonce | ciphertext | tag); never plaintext. */
  content_encrypted: string;
  message_type: string;
  client_id: string | null;
  /** Per-chat sequence: 1, 2, 3 … in insert order (migration 002). */
  seq: number;
  /** The last edit's time; null when never edited (migration 013). */
  edited_at: string | null;
  /** Set when deleted: the row stays, its content emptied (migration 013). */
  deleted_at: string | null;
  /** Changes of its reactions so far (migration 014). */
  reactions_version: Generated<number>;
  /** The first message of the thread this one replies to; null for a message that replies to nothing (migration 015). */
  reply_to: string | null;
  /** How many replies this message has (migration 015). */
  reply_count: Generated<number>;
  /** The file a file message announces; null on other messages (migration 016). */
  file: string | null;
  /** JSON of a file message's MessageFile or a system line's SystemLine; null on other messages (migration 016). */
  details: string | null;
  created: string;
  updated: string;
}

export interface FilesTable {
  id: string;
  chat: string;
  uploaded_by: string | null;
  file: string;
  original_name: string;
  mime_type: string;
  size: number;
  description: string;
  created: string;
  updated: string;
}

export interface PasswordResetTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires: string;
  used_at: string | null;
  created: string;
}

export interface InvitationsTable {
  id: string;
  chat: string;
  invited_by: string | null;
  email: string;
  username: string;
  link_type: string;
  token_hash: string;
  expires: string;
  accepted_by: string | null;
  accepted_at: string | null;
  created: string;
  updated: string;
  /** The account the e-mail belonged to when invited (migration 004); null for unknown addresses. */
  invitee: string | null;
}

export interface ShareLinksTable {
  id: string;
  chat: string;
  created_by: string | null;
  token_hash: string;
  expires: string;
  max_uses: number;
  use_count: number;
  revoked_at: string | null;
  created: string;
  updated: string;
}

export interface DropsTable {
  id: string;
  slug: string;
  chat: string;
  author: string | null;
  title: string;
  excerpt: string;
  content: string;
  featured_image: string;
  /** JSON text: string[] */
  tags: string;
  view_count: number;
  like_count: number;
  reading_time: number;
  /** Stored trending score (migration 006), refreshed on likes, views and a periodic sweep. */
  trending_score: number;
  published_at: string;
  created: string;
  updated: string;
}

export interface DropReactionsTable {
  drop_id: string;
  user_id: string;
  created: string;
}

export interface ChatFollowsTable {
  chat_id: string;
  user_id: string;
  created: string;
}

/** One-time claims of the whole server (migration 003), e.g. 'first_admin'. */
export interface ServerClaimsTable {
  name: string;
  user_id: string;
  created: string;
}

/** Mentions and auto-routes of agents (migration 005): the offline queue and the invocation grants. */
export interface AgentMentionsTable {
  id: string;
  agent: string;
  chat: string;
  message: string;
  reason: string;
  hop: number;
  created: string;
  expires: string;
  acked_at: string | null;
}

/** Streamed replies still growing (migration 005). */
export interface AgentStreamsTable {
  id: string;
  /** The agent's own name for the stream. */
  stream_key: string;
  agent: string;
  chat: string;
  mention: string | null;
  /** The message the stored reply answers (migration 015). */
  reply_to: string | null;
  text_encrypted: string;
  length: number;
  started: string;
  updated: string;
}

/** One view of a drop by a user on a UTC day (migration 006). */
export interface DropViewsTable {
  drop_id: string;
  user_id: string;
  day: string;
}

/** The ordered drop ids a feed's page 1 saw (migration 006). */
export interface FeedSnapshotsTable {
  id: string;
  user_id: string;
  kind: string;
  /** JSON text: string[] */
  drop_ids: string;
  per_page: number;
  total_count: number;
  expires: string;
}

export interface DropNotificationReadsTable {
  user_id: string;
  last_read: string;
}

/** A person's read position and mute in one chat (migrations/012_chat_reads.ts). */
export interface ChatReadsTable {
  chat_id: string;
  user_id: string;
  last_read_seq: number;
  muted: number;
  /** 1: every message notifies; 0: mentions and replies only (migration 017). */
  notify_all: Generated<number>;
  /** The highest mention seq a missed-mention mail covered (migration 017). */
  mailed_through_seq: Generated<number>;
  updated: string;
}

/** A person a stored message mentions, by the message's seq. */
export interface MessageMentionsTable {
  user_id: string;
  chat_id: string;
  seq: number;
  /** The mentioning message's `created` (migration 018), for the missed-mention sweep's window. */
  created: string;
}

/** A person's emoji reaction on a message (migration 014): one row per (message, user, emoji). */
export interface MessageReactionsTable {
  message: string;
  chat: string;
  user: string;
  emoji: string;
  created: string;
}

export interface Database {
  users: UsersTable;
  chats: ChatsTable;
  chat_participants: ChatMembersTable;
  chat_admins: ChatMembersTable;
  messages: MessagesTable;
  files: FilesTable;
  password_reset_tokens: PasswordResetTokensTable;
  invitations: InvitationsTable;
  share_links: ShareLinksTable;
  drops: DropsTable;
  drop_likes: DropReactionsTable;
  drop_bookmarks: DropReactionsTable;
  chat_follows: ChatFollowsTable;
  server_claims: ServerClaimsTable;
  agent_mentions: AgentMentionsTable;
  agent_streams: AgentStreamsTable;
  drop_views: DropViewsTable;
  feed_snapshots: FeedSnapshotsTable;
  drop_notification_reads: DropNotificationReadsTable;
  chat_reads: ChatReadsTable;
  message_mentions: MessageMentionsTable;
  message_reactions: MessageReactionsTable;
}
