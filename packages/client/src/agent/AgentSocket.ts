import { closeCodes } from '../protocol';
import type { AgentIdentity, ClientFrame, ServerFrame } from '../protocol';
import { SocketLifecycle, abandonedCloseCode, parseServerFrame, reconnectDelayMs, writeFrame } from '../realtime/socketLifecycle';
import type { ResolvedAgentOptions } from './options';
import type { AgentConnectionStatus, AgentWebSocket } from './types';

export interface AgentSocketEvents {
  /** A frame after authSuccess (pong excepted). */
  frame(frame: ServerFrame): void;
  authenticated(identity: AgentIdentity): void;
  disconnected(code: number | null, retryInMs: number | null): void;
  /** The key was refused (authError, or close 4001): the socket has stopped for good. */
  refused(serverMessage: string | null, afterSuccess: boolean): void;
  status(status: AgentConnectionStatus): void;
}

const normalCloseCode = 1000;
const closedReadyState = 3;
/** close() waits this long at most for the closing handshake. */
const closeWaitMs = 1000;

/**
 * The agent's socket (docs/PRODUCT.md §4, like RealtimeConnection, but with the API key): authenticates with
 * `authenticate_with_api_key`, pings every 30 s and counts a connection dead after 10 s without a
 * pong, and reconnects with backoff (1 s doubling to 30 s, then every 30 s forever: an agent
 * process should come back when the server does) unless the key was refused.
 */
export class AgentSocket {
  private readonly lifecycle: SocketLifecycle<AgentWebSocket>;
  private currentStatus: AgentConnectionStatus = 'connecting';
  private identified = false;
  private retries = 0;
  /** Bumped by every authSuccess: a stream opened on an earlier connection is gone. */
  private connectionNumber = 0;

  constructor(
    private readonly options: ResolvedAgentOptions,
    private readonly events: AgentSocketEvents,
  ) {
    const { connectTimeoutMs, pingIntervalMs, pongTimeoutMs } = options;
    this.lifecycle = new SocketLifecycle({ connectTimeoutMs, pingIntervalMs, pongTimeoutMs, closeReason: 'closed by agent' });
  }

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
    const socket = this.lifecycle.socket;
    if (this.currentStatus !== 'connected' || socket === null) return false;
    return writeFrame(socket, frame);
  }

  /** Stops for good and clears every timer; resolves once the socket has closed (1 s at most). */
  close(): Promise<void> {
    const socket = this.lifecycle.teardown(normalCloseCode);
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
    this.lifecycle.startConnectTimer(() => this.lose(null));
    let socket: AgentWebSocket;
    try {
      socket = new this.options.WebSocket(this.options.socketUrl);
    } catch {
      this.lose(null);
      return;
    }
    this.lifecycle.attach(socket);
    socket.onopen = () => writeFrame(socket, { type: 'authenticate_with_api_key', api_key: this.options.apiKey });
    socket.onmessage = (event: { data: unknown }) => {
      if (socket === this.lifecycle.socket) this.receive(event.data);
    };
    socket.onclose = (event: { code: number }) => {
      if (socket !== this.lifecycle.socket) return;
      if (event.code === closeCodes.authenticationFailed) this.refuse(null);
      else this.lose(event.code);
    };
  }

  private receive(data: unknown): void {
    const frame = parseServerFrame(data);
    if (frame === null) return;
    if (frame.type === 'authSuccess') this.authenticated(frame.agent ?? { id: frame.user_id ?? '', username: '', name: '', dev_room_id: '' });
    else if (frame.type === 'authError') this.refuse(frame.message ?? null);
    else if (frame.type === 'pong') this.lifecycle.pong();
    else if (this.currentStatus === 'connected') this.events.frame(frame);
  }

  private authenticated(identity: AgentIdentity): void {
    if (this.lifecycle.socket === null) return;
    this.lifecycle.authenticated(() => this.lose(null));
    this.retries = 0;
    this.identified = true;
    this.connectionNumber += 1;
    this.setStatus('connected');
    this.events.authenticated(identity);
  }

  /** The socket or the attempt is gone without close(): retry unless told not to. */
  private lose(code: number | null): void {
    this.lifecycle.teardown(abandonedCloseCode);
    const reconnect = this.options.reconnect;
    if (reconnect === null) {
      this.setStatus('closed');
      this.events.disconnected(code, null);
      return;
    }
    this.retries += 1;
    const retryInMs = reconnectDelayMs(this.retries, reconnect);
    this.setStatus('connecting');
    this.events.disconnected(code, retryInMs);
    this.lifecycle.scheduleReconnect(retryInMs, () => this.open());
  }

  /** The same key would be refused again: stop. */
  private refuse(serverMessage: string | null): void {
    this.lifecycle.teardown(abandonedCloseCode);
    this.setStatus('closed');
    this.events.refused(serverMessage, this.identified);
  }

  private setStatus(status: AgentConnectionStatus): void {
    if (this.currentStatus === status) return;
    this.currentStatus = status;
    this.events.status(status);
  }
}
