import type { ClientFrame, ServerFrame } from '../protocol';
import type { ConnectionState } from '../store/createConfabStore';

/** idle until the first connect(); connecting also covers the waits between reconnect attempts. */
export type RealtimeState = ConnectionState;

/** Timings of docs/PRODUCT.md §4 / §9; every one defaults to the value given there (constants.ts). */
export interface RealtimeTimings {
  /** Heartbeat period once connected. Default 30 000. */
  pingIntervalMs?: number | undefined;
  /** A ping unanswered this long marks the connection dead. Default 10 000. */
  pongTimeoutMs?: number | undefined;
  /** From the start of an attempt until authSuccess. Default 15 000. */
  connectTimeoutMs?: number | undefined;
  /** Delay before the first reconnect attempt; each further attempt doubles it. Default 1 000. */
  reconnectBaseDelayMs?: number | undefined;
  /** Cap of the doubling. Default 30 000. */
  reconnectMaxDelayMs?: number | undefined;
  /** Attempts after a loss before giving up (state closed). Default 5. */
  maxReconnectAttempts?: number | undefined;
}

export interface RealtimeOptions extends RealtimeTimings {
  /** The WebSocket constructor; defaults to globalThis.WebSocket. Inject `ws` in Node 20. */
  WebSocket?: typeof WebSocket | undefined;
}

export interface RealtimeConnectionOptions extends RealtimeOptions {
  /** The gateway URL, e.g. GET /api/config's websocket_url; asked again on every attempt. */
  url: () => string | Promise<string>;
  /** The auth token to authenticate with, or null when signed out (then no attempt is made). */
  token: () => string | null;
}

type ServerFrameEvents = { [Frame in ServerFrame as Frame['type']]: Frame };

/** Events of `RealtimeConnection.on`: every server frame by its type, plus connection events. */
export type RealtimeEventMap = ServerFrameEvents & {
  state: { state: RealtimeState; previous: RealtimeState };
  /** A reconnect attempt is scheduled after delayMs (attempt counts from 1 since the last success). */
  reconnecting: { attempt: number; delayMs: number };
};

export type RealtimeEventType = keyof RealtimeEventMap;

/** Frames an application sends through `RealtimeConnection.send`; auth and ping are the connection's. */
export type OutgoingFrame = Exclude<ClientFrame, { type: 'authenticate_with_token' | 'ping' }>;
