/**
 * The agents' part of the wire contract (docs/CONTRACTS.md "Agents"): the HTTP answers
 * of the agent endpoints, the frames an agent's connection speaks, and the frames people's
 * clients receive while agents work. Types and constants only; re-exported by `./index.ts`.
 */

import type { WireMessage } from './index';

/** `developer-agent`: written and run by a developer through the SDK or `confab run`; `confab-agent`: hosted by the server. */
export type AgentType = 'developer-agent' | 'confab-agent';

/**
 * A developer agent is `online` while a connection with its key is open (on any instance),
 * otherwise `offline`; a hosted agent is always `active`.
 */
export type AgentStatus = 'online' | 'offline' | 'active';

/** An agent as its owner (or, for hosted agents, anyone) sees it: GET /api/agents/mine and friends. */
export interface AgentView {
  id: string;
  name: string;
  username: string;
  description: string;
  agent_type: AgentType;
  status: AgentStatus;
  /** False: only in its dev room. */
  site_wide_available: boolean;
  /** '' until the first connection creates the dev room. */
  dev_room_id: string;
  /** The developer who created it ('' for hosted agents created on first start). */
  created_by: string;
  created: string;
  updated: string;
}

/** The agent search result form of docs/PRODUCT.md §3 (Agent). */
export type AgentSearchHit = Pick<AgentView, 'id' | 'name' | 'username' | 'agent_type' | 'description' | 'status' | 'created_by'>;

/** GET /api/agents/search?q=…[&chat_id=…]. */
export interface AgentSearchAnswer {
  agents: AgentSearchHit[];
}

/** GET /api/agents/mine and GET /api/admin/confab-agents. */
export interface AgentListAnswer {
  agents: AgentView[];
}

/** POST /api/agents and POST /api/agents/{id}/rotate-key: the key is shown this once. */
export interface AgentKeyAnswer {
  agent: AgentView;
  /** `cfk_` + 43 base64url characters (256 random bits). Stored by the server only as a hash. */
  api_key: string;
}

/** PATCH /api/agents/{id}, GET /api/agent/me, POST /api/admin/confab-agents. */
export interface AgentAnswer {
  agent: AgentView;
}

/** POST /api/agent/messages (bearer: the agent's API key). */
export interface AgentPostAnswer {
  message: WireMessage;
}

/** The prefix every API key starts with, so a leaked key is recognisable (and scannable). */
export const apiKeyPrefix = 'cfk_';

/** Why an agent received a mention. */
export type MentionReason = 'mention' | 'auto_route';

/** What an agent's handler receives (the SDK's `mention`). */
export interface Mention {
  /** Acknowledge it with `mention_ack`; until then it is sent again on every (re)connect. */
  mention_id: string;
  reason: MentionReason;
  message_id: string;
  chat_id: string;
  chat_name: string;
  /** The message, plaintext, as people wrote it (mentions included). */
  content: string;
  author_id: string;
  author_name: string;
  author_username: string;
  /** True when the author is itself an agent. */
  author_is_agent: boolean;
  created_at: string;
  /** The 20 messages before this one, oldest first. */
  context: WireMessage[];
  /** 1 for a person's message; each agent-to-agent mention adds one (at most 3). */
  hop: number;
  /**
   * When the message is a reply: its thread, the original first, then the latest replies in order
   * (this one included), at most replyLimits.threadContextMessages. A person's reply to an agent's
   * message reaches that agent as a mention without its @name.
   */
  thread?: WireMessage[];
  /** The thread's original when the message is a reply (the SDK's reply.send answers in that thread). */
  reply_to?: string;
}

// Agent → server frames (besides `ping`, `join_chat`, `leave_chat`, and `send_message`, which an
// agent may send into a chat where it holds an invocation: a mention or auto-route within 10
// minutes, its dev room, or a chat it participates in; elsewhere `not_invoked`).

/** Instead of authenticate_with_token: an agent signs in with its API key. */
export interface AuthenticateWithApiKeyFrame {
  type: 'authenticate_with_api_key';
  api_key: string;
}

export interface MentionAckFrame {
  type: 'mention_ack';
  mention_id: string;
}

/** Opens a reply that grows: `stream_id` is the agent's own name for it (≤ 100 characters). */
export interface StreamStartFrame {
  type: 'stream_start';
  chat_id: string;
  stream_id: string;
  /** The mention this answers (for the hop count), as in send_message: its own, live, or refused; optional. */
  mention_id?: string;
  /** The stored reply answers this message in its thread, as send_message's reply_to. */
  reply_to?: string;
}

export interface StreamAppendFrame {
  type: 'stream_append';
  stream_id: string;
  /** The next piece; the whole reply stays within maxMessageLength. */
  text: string;
}

/** Stores the reply as an ordinary message (new_message with this stream_id). */
export interface StreamEndFrame {
  type: 'stream_end';
  stream_id: string;
}

/** 'is searching…': shown under the chat until the agent's reply ends; '' clears it. */
export interface AgentStatusFrame {
  type: 'agent_status';
  chat_id: string;
  text: string;
}

export type AgentClientFrame = AuthenticateWithApiKeyFrame | MentionAckFrame | StreamStartFrame | StreamAppendFrame | StreamEndFrame | AgentStatusFrame;

// Server → agent

export interface MentionFrame {
  type: 'mention';
  mention: Mention;
}

/** authSuccess for an agent carries who it is. */
export interface AgentIdentity {
  id: string;
  username: string;
  name: string;
  dev_room_id: string;
}

// Server → people's clients (joined to the chat unless said otherwise)

export interface AgentRef {
  id: string;
  username: string;
  name: string;
}

/** A streamed reply began. */
export interface StreamStartedFrame {
  type: 'stream_started';
  chat_id: string;
  stream_id: string;
  agent: AgentRef;
  started_at: string;
}

/** More text of a streamed reply: `text` belongs at `offset` (characters) of the reply so far. */
export interface StreamDeltaFrame {
  type: 'stream_delta';
  chat_id: string;
  stream_id: string;
  offset: number;
  text: string;
}

/** Sent on join_chat for every reply still growing in that chat: the whole text so far. */
export interface StreamSnapshotFrame {
  type: 'stream_snapshot';
  chat_id: string;
  stream_id: string;
  agent: AgentRef;
  started_at: string;
  text: string;
}

/** A stream ended with no text: nothing was stored; drop its placeholder. */
export interface StreamAbortedFrame {
  type: 'stream_aborted';
  chat_id: string;
  stream_id: string;
}

/** An agent's status line in a chat ('' clears it); cleared too when its reply ends. */
export interface AgentStatusChangedFrame {
  type: 'agent_status';
  chat_id: string;
  agent: AgentRef;
  text: string;
}

/**
 * To the sender's sockets only: what happened to a mention in their message (the agent is offline
 * and the mention waits; agents of that kind are off in the chat; …). Not stored.
 */
export interface AgentNoticeFrame {
  type: 'agent_notice';
  chat_id: string;
  /** The message the notice is about. */
  message_id: string;
  agent_username: string;
  reason: AgentNoticeReason;
  text: string;
}

export type AgentNoticeReason = 'offline' | 'developer_agents_off' | 'confab_agents_off' | 'not_available' | 'hop_limit';

/** To a developer's sockets: one of their agents came online or went offline. */
export interface AgentPresenceFrame {
  type: 'agent_presence';
  agent_id: string;
  status: AgentStatus;
}

export type AgentServerFrame =
  | MentionFrame
  | StreamStartedFrame
  | StreamDeltaFrame
  | StreamSnapshotFrame
  | StreamAbortedFrame
  | AgentStatusChangedFrame
  | AgentNoticeFrame
  | AgentPresenceFrame;

/** The texts of agent notices (docs/PRODUCT.md §8 style, exact). */
export const agentNoticeTexts = {
  offline: (username: string, queueMinutes: number) =>
    `@${username} is offline. Your message will be delivered if it reconnects within ${queueMinutes} minutes.`,
  developerAgentsOff: 'Developer agents are off in this chat. A chat admin can allow them in Chat Options.',
  confabAgentsOff: 'Confab agents are off in this chat. A chat admin can allow them in Chat Options.',
  notAvailable: (username: string) => `@${username} is only available in its dev room.`,
  hopLimit: (username: string) => `@${username} was not called: agents may call agents at most 3 times in a row.`,
} as const;

/**
 * Appended (after a blank line) to a streamed reply the server had to close for its agent: the
 * agent went offline mid-stream, or sent nothing for `agentLimits.streamIdleMs`.
 */
export const interruptedReplyText = (username: string) => `@${username} was interrupted before finishing this reply.`;

/** Limits of the agent runtime both sides know. */
export const agentLimits = {
  /** Messages before the mentioning one that a mention carries. */
  contextMessages: 20,
  /** A mention (or auto-route) lets the agent post in that chat this long. */
  invocationMs: 10 * 60 * 1000,
  /** A stream without an append this long is closed with what it has. */
  streamIdleMs: 60 * 1000,
  /** Agent-to-agent mentions after a person's message. */
  maxHops: 3,
  streamIdMaxLength: 100,
  statusMaxLength: 200,
} as const;
