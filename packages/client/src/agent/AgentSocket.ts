import { closeCodes } from '../protocol';
import type { AgentIdentity, ClientFrame, ServerFrame } from '../protocol';
import type { ResolvedAgentOptions } from './options';
import type { AgentConnectionStatus, AgentWebSocket } from './types';

type Timer = ReturnType<typeof setTimeout>;

export interface AgentSocketEvents {
  /** A frame after authSuccess (pong excepted). */
  frame(frame: ServerFrame): void;
  authenticated(identity: AgentIdentity): void;
  disconnected(code: number | null, retryInMs: number | null): void;
  /** The key was refused (authError, or close 4001): the socket has stopped for good. */
  refused(serverMessage: string | null, afterSuccess: boolean): void;
  status(status: AgentConnectionStatus): void;
}

/** Our own close code when we abandon a socket (dead heartbeat, connect timeout). */
const abandonedCloseCode = 4000;
const normalCloseCode = 1000;
const closedReadyState = 3;
/** close() waits this long at most for the closing handshake. */
const closeWaitMs = 1000;
const ignore = (): void => {};

/**
 * The agent's socket (spec §4 like RealtimeConnection, but with the API key): authenticates with
 * `authenticate_with_api_key`, pings every 30 s and counts a connection dead after 10 s without a
 * pong, and reconnects with backoff (1 s doubling to 30 s, then every 30 s forever: an agent
 * process should come back when the server does) unless the key was refused.
 */
export class AgentSocket {
  private currentStatus: AgentConnectionStatus = 'connecting';
  private socket: AgentWebSocket | null = null;
  private identified = false;
  private retries = 0;
  /** Bumped by every authSuccess: a stream opened on an earlier connection is gone. */
  private connectionNumber = 0;
  private connectTimer: Timer | null = null;
  private reconnectTimer: Timer | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: Timer | null = null;

  constructor(
    private readonly options: ResolvedAgentOptions,
    private readonly events: AgentSocketEvents,
  ) {}

  get status(): AgentConnectionStatus {
    return this.currentStatus;
  }

  /** Which authenticated connection is current (0 before the first). */
  get connection(): number {
    return this.connectionNumber;
  }

  start(): void {
    this.open();
  }

  /** Sends when authenticated; returns false (sending nothing) otherwise. */
  send(frame: ClientFrame): boolean {
    if (this.currentStatus !== 'connected' || this.socket === null) return false;
    return write(this.socket, frame);
  }

  /** Stops for good and clears every timer; resolves once the socket has closed (1 s at most). */
  close(): Promise<void> {
    const socket = this.socket;
    this.teardown(normalCloseCode);
    this.setStatus('closed');
    if (socket === null || socket.readyState === closedReadyState) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        socket.onclose = null;
        resolve();
      };
      const timer = setTimeout(done, closeWaitMs);
      socket.onclose = done;
    });
  }

  private open(): void {
    this.reconnectTimer = null;
    this.connectTimer = setTimeout(() => this.lose(null), this.options.connectTimeoutMs);
    let socket: AgentWebSocket;
    try {
      socket = new this.options.WebSocket(this.options.socketUrl);
    } catch {
      this.lose(null);
      return;
    }
    this.socket = socket;
    socket.onopen = () => write(socket, { type: 'authenticate_with_api_key', api_key: this.options.apiKey });
    socket.onmessage = (event: { data: unknown }) => {
      if (socket === this.socket) this.receive(event.data);
    };
    socket.onclose = (event: { code: number }) => {
      if (socket !== this.socket) return;
      if (event.code === closeCodes.authenticationFailed) this.refuse(null);
      else this.lose(event.code);
    };
    socket.onerror = ignore; // a close event follows every error
  }

  private receive(data: unknown): void {
    const frame = parseFrame(data);
    if (frame === null) return;
    if (frame.type === 'authSuccess') this.authenticated(frame.agent ?? { id: frame.user_id ?? '', username: '', name: '', dev_room_id: '' });
    else if (frame.type === 'authError') this.refuse(frame.message ?? null);
    else if (frame.type === 'pong') this.clearTimer('pongTimer');
    else if (this.currentStatus === 'connected') this.events.frame(frame);
  }

  private authenticated(identity: AgentIdentity): void {
    const socket = this.socket;
    if (socket === null) return;
    this.clearTimer('connectTimer');
    this.retries = 0;
    this.identified = true;
    this.connectionNumber += 1;
    this.pingTimer = setInterval(() => {
      write(socket, { type: 'ping', timestamp: Date.now() });
      // The deadline runs from the first unanswered ping; later pings do not push it back.
      this.pongTimer ??= setTimeout(() => this.lose(null), this.options.pongTimeoutMs);
    }, this.options.pingIntervalMs);
    this.setStatus('connected');
    this.events.authenticated(identity);
  }

  /** The socket or the attempt is gone without close(): retry unless told not to. */
  private lose(code: number | null): void {
    this.teardown(abandonedCloseCode);
    const reconnect = this.options.reconnect;
    if (reconnect === null) {
      this.setStatus('closed');
      this.events.disconnected(code, null);
      return;
    }
    this.retries += 1;
    const retryInMs = Math.min(reconnect.initialDelayMs * 2 ** (this.retries - 1), reconnect.maxDelayMs);
    this.setStatus('connecting');
    this.events.disconnected(code, retryInMs);
    this.reconnectTimer = setTimeout(() => this.open(), retryInMs);
  }

  /** The same key would be refused again: stop. */
  private refuse(serverMessage: string | null): void {
    this.teardown(abandonedCloseCode);
    this.setStatus('closed');
    this.events.refused(serverMessage, this.identified);
  }

  private teardown(closeCode: number): void {
    this.clearTimer('connectTimer');
    this.clearTimer('reconnectTimer');
    this.clearTimer('pongTimer');
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    this.pingTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket === null) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    // Keep an error listener: Node's `ws` throws an unhandled 'error' when one is closed mid-handshake.
    socket.onerror = ignore;
    try {
      socket.close(closeCode, 'closed by agent');
    } catch {
      // Already closing or closed.
    }
  }

  private clearTimer(name: 'connectTimer' | 'reconnectTimer' | 'pongTimer'): void {
    const timer = this[name];
    if (timer !== null) clearTimeout(timer);
    this[name] = null;
  }

  private setStatus(status: AgentConnectionStatus): void {
    if (this.currentStatus === status) return;
    this.currentStatus = status;
    this.events.status(status);
  }
}

function write(socket: AgentWebSocket, frame: ClientFrame): boolean {
  try {
    socket.send(JSON.stringify(frame));
    return true;
  } catch {
    return false; // not open yet or already closing; the close handler takes over
  }
}

function parseFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as unknown;
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return null;
    return value as ServerFrame;
  } catch {
    return null;
  }
}
