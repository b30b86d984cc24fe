// Shared by the people's RealtimeConnection and the agent SDK's AgentSocket: it may import only
// protocol types, so that `@confab/client/agent` stays free of pocketbase, zustand and the rest.
import type { ClientFrame, ServerFrame } from '../protocol';

/** Our own close code when we abandon a socket (dead heartbeat, connect timeout). */
export const abandonedCloseCode = 4000;

/**
 * The part of a WebSocket the lifecycle touches; the browser's (and Node 22+'s global) WebSocket
 * and the `ws` package's fit.
 */
export interface LifecycleSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: never) => void) | null;
  onmessage: ((event: never) => void) | null;
  onclose: ((event: never) => void) | null;
  onerror: ((event: never) => void) | null;
}

export interface SocketLifecycleOptions {
  /** From the start of an attempt until authentication. */
  connectTimeoutMs: number;
  /** Heartbeat period once authenticated. */
  pingIntervalMs: number;
  /** A ping unanswered this long marks the connection dead. */
  pongTimeoutMs: number;
  /** The reason sent with the close frame of a torn-down socket, e.g. 'closed by client'. */
  closeReason: string;
}

type Timer = ReturnType<typeof setTimeout>;
type TimerName = 'connectTimer' | 'reconnectTimer' | 'pongTimer';

const ignore = (): void => {};

/**
 * The delay before reconnect attempt `attempt` (1 for the first retry): `initialDelayMs`
 * doubling with each attempt, capped at `maxDelayMs`.
 *
 * @example
 * reconnectDelayMs(3, { initialDelayMs: 1000, maxDelayMs: 30_000 }); // 4000
 */
export function reconnectDelayMs(attempt: number, backoff: { initialDelayMs: number; maxDelayMs: number }): number {
  return Math.min(backoff.initialDelayMs * 2 ** (attempt - 1), backoff.maxDelayMs);
}

/**
 * The mechanism of one reconnecting, heartbeating socket: the current socket, the connect
 * timeout, the ping interval with its pong deadline, the reconnect timer, and a teardown that
 * clears them all. What to do when an attempt is lost (retry or stop) is the owner's policy.
 */
export class SocketLifecycle<Socket extends LifecycleSocket> {
  private current: Socket | null = null;
  private connectTimer: Timer | null = null;
  private reconnectTimer: Timer | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: Timer | null = null;

  constructor(private readonly options: SocketLifecycleOptions) {}

  /** The socket of the current attempt; null between attempts and after a teardown. */
  get socket(): Socket | null {
    return this.current;
  }

  /** Starts an attempt's deadline: `onTimeout` runs unless authenticated() comes first. */
  startConnectTimer(onTimeout: () => void): void {
    this.clearTimer('connectTimer');
    this.connectTimer = setTimeout(onTimeout, this.options.connectTimeoutMs);
  }

  /**
   * Makes `socket` the current one and ignores its errors (a close event follows every error);
   * its other handlers are the owner's to set.
   */
  attach(socket: Socket): void {
    this.current = socket;
    socket.onerror = ignore;
  }

  /** Ends the connect timeout and starts the heartbeat; `onDead` runs when a pong is overdue. */
  authenticated(onDead: () => void): void {
    const socket = this.current;
    this.clearTimer('connectTimer');
    if (socket === null) return;
    this.pingTimer = setInterval(() => {
      writeFrame(socket, { type: 'ping', timestamp: Date.now() });
      // The deadline runs from the first unanswered ping; later pings do not push it back.
      this.pongTimer ??= setTimeout(onDead, this.options.pongTimeoutMs);
    }, this.options.pingIntervalMs);
  }

  /** A pong arrived: the connection is alive. */
  pong(): void {
    this.clearTimer('pongTimer');
  }

  /** Runs `reopen` after `delayMs`, unless a teardown comes first. */
  scheduleReconnect(delayMs: number, reopen: () => void): void {
    this.clearTimer('reconnectTimer');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      reopen();
    }, delayMs);
  }

  /**
   * Clears every timer and closes the current socket with `closeCode`, detaching its handlers
   * first so that nothing it still emits reaches the owner. Returns the socket it closed.
   */
  teardown(closeCode: number): Socket | null {
    this.clearTimer('connectTimer');
    this.clearTimer('reconnectTimer');
    this.clearTimer('pongTimer');
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
    const socket = this.current;
    this.current = null;
    if (socket === null) return null;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    // Keep an error listener: Node's `ws` throws an unhandled 'error' when one is closed mid-handshake.
    socket.onerror = ignore;
    try {
      socket.close(closeCode, this.options.closeReason);
    } catch {
      // Already closing or closed.
    }
    return socket;
  }

  private clearTimer(name: TimerName): void {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }
}

/** Sends a frame; returns false when the socket cannot send (not open yet or already closing). */
export function writeFrame(socket: Pick<LifecycleSocket, 'send'>, frame: ClientFrame): boolean {
  try {
    socket.send(JSON.stringify(frame));
    return true;
  } catch {
    return false; // the close handler takes over
  }
}

/** A text frame with a string `type`, or null for anything else. */
export function parseServerFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return null;
    return value as ServerFrame;
  } catch {
    return null;
  }
}
