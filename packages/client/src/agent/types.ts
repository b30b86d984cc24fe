import type { AgentIdentity, Mention, ReactionSummary, WireMessage } from '../protocol';
import type { AgentError } from './errors';

/** How a reply is posted: by default as a reply to the mention's message, in its thread (docs/CONTRACTS.md, Replies). */
export interface ReplyOptions {
  /** Post in the chat itself, not as a reply to the message that mentioned the agent. Default false. */
  topLevel?: boolean | undefined;
}

/** How a handler answers the mention it was given: in the mention's chat, naming the mention. */
export interface Reply {
  /**
   * Posts a whole reply (send_message with a fresh client_id); resolves with the stored message
   * once the server echoes it. Rejects with an AgentError: the server's refusal (`not_invoked`,
   * `invalid_message`, `rate_limited`), `invalid_reply` (empty or over 10,000 characters) or
   * `timeout`. Sent while the connection is down, it goes out on reconnect (the server stores
   * one message per client_id). Await it: a failure nobody awaits is not reported (and does not
   * crash the process). It answers the mention's message in its thread (reply_to), unless
   * `{ topLevel: true }`.
   *
   * @example
   * await reply.send('Done.');                          // in the thread of the message that asked
   * await reply.send('Heads up, all', { topLevel: true }); // in the chat itself
   */
  send(content: string, options?: ReplyOptions): Promise<WireMessage>;
  /** Opens a reply that grows as it is written (stream_start with a random stream_id), in the thread unless `{ topLevel: true }`. */
  stream(options?: ReplyOptions): ReplyStream;
  /** A status line under the chat ('searching…'); '' clears it. Longer than 200 characters is cut. */
  status(text: string): void;
  /**
   * Replaces the content of a message this agent wrote (what send() or a stream's end() resolved
   * with, or its id), in any chat it wrote it in; resolves with the message as edited, which
   * people see marked "(edited)". Rejects with an AgentError: `not_allowed` (not this agent's
   * message, or deleted), `invalid_message`, `invalid_reply` (empty or over 10,000 characters)
   * or `timeout`.
   */
  edit(message: WireMessage | string, content: string): Promise<WireMessage>;
  /**
   * Reacts to the mention's message with one emoji (`reply.react('👀')`: "I'm on it"), as this
   * agent; adding it twice changes nothing. Resolves with the message's reactions after it.
   * Rejects with an AgentError: `invalid_reply` (not exactly one emoji, checked before sending),
   * `invalid_reaction` (too many different emoji on the message), `not_invoked` or `timeout`.
   */
  react(emoji: string): Promise<ReactionSummary[]>;
}

export interface ReplyStream {
  /** The stream_id the server and people's clients know this reply by. */
  readonly id: string;
  /** Appends text (stream_append); empty text is ignored. Throws after end(). */
  write(text: string): void;
  /**
   * Finishes the reply (stream_end); resolves with the stored message (new_message with this
   * stream_id). Rejects when nothing was written (nothing is stored), on the server's refusal,
   * when the connection dropped mid-stream (`disconnected`) or on `timeout`.
   */
  end(): Promise<WireMessage>;
}

/** An agent's code: called once per mention, possibly concurrently for different mentions. */
export type MentionHandler = (mention: Mention, reply: Reply) => void | Promise<void>;

/** Where the SDK reports failures it cannot throw to anyone (a handler's error, a refused key). */
export interface AgentLogger {
  error(message: string, ...details: unknown[]): void;
}

/**
 * The part of a WebSocket the SDK uses; both the browser's (and Node 22+'s global) WebSocket and
 * the `ws` package's fit. The SDK reads `data` of message events and `code`/`reason` of close events.
 */
export interface AgentWebSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
}

export type AgentWebSocketConstructor = new (url: string) => AgentWebSocket;

export interface ReconnectOptions {
  /** Delay before the first retry; each further retry doubles it. Default 1 000. */
  initialDelayMs?: number | undefined;
  /** Cap of the doubling; an agent keeps retrying at this pace forever. Default 30 000. */
  maxDelayMs?: number | undefined;
}

export interface ConnectAgentOptions {
  /** The server's base URL, e.g. `http://localhost:8090`; the socket is ws(s)://host/api/ws. */
  url: string;
  /** The agent's API key (`cfk_…`), shown once when the agent was created or its key rotated. */
  apiKey: string;
  /** The WebSocket constructor. Default: globalThis.WebSocket (browsers, Node 22+); in Node 20 pass `ws`. */
  WebSocket?: AgentWebSocketConstructor | undefined;
  /** Default: console. */
  logger?: AgentLogger | undefined;
  /** Retry after a dropped connection (default true: 1 s doubling to 30 s, then every 30 s forever). */
  reconnect?: boolean | ReconnectOptions | undefined;
  /** Heartbeat period once connected. Default 30 000. */
  pingIntervalMs?: number | undefined;
  /** A ping unanswered this long marks the connection dead. Default 10 000. */
  pongTimeoutMs?: number | undefined;
  /** From the start of an attempt until authSuccess. Default 15 000. */
  connectTimeoutMs?: number | undefined;
  /** How long reply.send and stream.end wait for the server's confirmation. Default 10 000. */
  replyTimeoutMs?: number | undefined;
}

/**
 * `connecting` until authSuccess (and while waiting to retry), `connected`, `closed` for good
 * (close() or a refused key).
 */
export type AgentConnectionStatus = 'connecting' | 'connected' | 'closed';

/** Events of `agent.on`, for log lines: none is needed to run an agent. */
export interface AgentEventMap {
  status: { status: AgentConnectionStatus };
  /** authSuccess, on the first connection and every reconnect. */
  connected: { identity: AgentIdentity };
  /** The socket closed; `retryInMs` is null when the SDK will not retry. */
  disconnected: { code: number | null; retryInMs: number | null };
  /** A new mention, just before its handler runs (repeats are not reported). */
  mention: { mention: Mention };
  /** A reply (whole or streamed) the server stored. */
  reply: { mention: Mention; message: WireMessage; streamed: boolean };
  /** A handler failed, a key was refused, a frame was unreadable: also given to logger.error. */
  error: { error: AgentError; mention?: Mention };
}

export type AgentEventType = keyof AgentEventMap;

/** What connectAgent returns. */
export interface AgentConnection {
  /**
   * Resolves with who the agent is after the first authSuccess (while the server is away it waits
   * through the retries); rejects when the key is refused, on close() before that, or when the
   * connection fails with `reconnect: false`.
   */
  readonly ready: Promise<AgentIdentity>;
  readonly status: AgentConnectionStatus;
  /** Sets the handler of every mention (a second call replaces it). Mentions that arrived before wait for it. */
  onMention(handler: MentionHandler): void;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<Type extends AgentEventType>(type: Type, listener: (event: AgentEventMap[Type]) => void): () => void;
  /** Closes for good and clears every timer; waiting replies reject with `closed`. Resolves once the socket is closed. */
  close(): Promise<void>;
}
