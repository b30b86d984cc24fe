import { constants } from '../constants';
import { closeCodes } from '../protocol';
import { Emitter } from './emitter';
import { ResumePoints } from './resumePoints';
import { SocketLifecycle, abandonedCloseCode, parseServerFrame, reconnectDelayMs, writeFrame } from './socketLifecycle';
import type {
  OutgoingFrame,
  RealtimeConnectionOptions,
  RealtimeEventMap,
  RealtimeEventType,
  RealtimeState,
  RealtimeTimings,
} from './types';

const defaultTimings: Required<RealtimeTimings> = {
  pingIntervalMs: constants.heartbeat.pingIntervalMs,
  pongTimeoutMs: constants.heartbeat.pongTimeoutMs,
  connectTimeoutMs: constants.realtimeConnectTimeoutMs,
  reconnectBaseDelayMs: constants.reconnect.initialDelayMs,
  reconnectMaxDelayMs: constants.reconnect.maxDelayMs,
  maxReconnectAttempts: constants.reconnect.maxAttempts,
};

/**
 * The realtime WebSocket of docs/PRODUCT.md §4: authenticates with the session token, keeps a
 * heartbeat, reconnects with capped exponential backoff while the login is valid, and after a
 * reconnect re-joins its chats from the last seq it holds so that missed messages arrive in order.
 *
 * @example
 * const realtime = new RealtimeConnection({ url: () => 'ws://localhost:8090/api/ws', token: () => pb.authStore.token });
 * realtime.on('new_message', ({ message }) => console.log(message.seq, message.content));
 * realtime.join('chat-id', 0); // replay the whole chat, then live
 * realtime.connect();
 */
export class RealtimeConnection {
  private readonly timings: Required<RealtimeTimings>;
  private readonly events = new Emitter<RealtimeEventMap>();
  private readonly resumePoints = new ResumePoints();
  private readonly lifecycle: SocketLifecycle<WebSocket>;
  private currentState: RealtimeState = 'idle';
  /** Bumped by every teardown so an attempt still awaiting its URL knows it is stale. */
  private attemptId = 0;
  private reconnectAttempt = 0;

  constructor(private readonly options: RealtimeConnectionOptions) {
    this.timings = { ...defaultTimings, ...definedOnly(options) };
    const { connectTimeoutMs, pingIntervalMs, pongTimeoutMs } = this.timings;
    this.lifecycle = new SocketLifecycle({ connectTimeoutMs, pingIntervalMs, pongTimeoutMs, closeReason: 'closed by client' });
  }

  get state(): RealtimeState {
    return this.currentState;
  }

  /** Opens the socket unless it is already connecting or connected. Never throws. */
  connect(): void {
    if (this.currentState === 'connecting' || this.currentState === 'connected') return;
    this.reconnectAttempt = 0;
    void this.open();
  }

  /** Closes for good (logout): no reconnect until the next connect(). Joined chats are forgotten. */
  close(): void {
    this.teardown();
    this.resumePoints.clear();
    if (this.currentState !== 'idle') this.setState('closed');
  }

  /**
   * Joins a chat now, or as soon as the connection is up, and again after every reconnect.
   * `afterSeq` is the last seq the caller holds: the server replays everything after it.
   */
  join(chatId: string, afterSeq?: number): void {
    this.resumePoints.track(chatId, afterSeq);
    if (this.currentState === 'connected') this.sendJoin(chatId);
  }

  leave(chatId: string): void {
    if (!this.resumePoints.has(chatId)) return;
    this.resumePoints.forget(chatId);
    this.send({ type: 'leave_chat', chat_id: chatId });
  }

  /** The seq up to which the messages of a joined chat have arrived without a gap. */
  lastSeq(chatId: string): number | undefined {
    return this.resumePoints.get(chatId);
  }

  /** Records that the caller holds every message up to seq, e.g. after paging a gap over HTTP. */
  advance(chatId: string, seq: number): void {
    this.resumePoints.advanceTo(chatId, seq);
  }

  /** Sends a frame when connected; returns false (sending nothing) otherwise. */
  send(frame: OutgoingFrame): boolean {
    const socket = this.lifecycle.socket;
    if (this.currentState !== 'connected' || socket === null) return false;
    return writeFrame(socket, frame);
  }

  /** Subscribes to a server frame type or a connection event; returns the unsubscribe function. */
  on<Type extends RealtimeEventType>(type: Type, handler: (event: RealtimeEventMap[Type]) => void): () => void {
    return this.events.on(type, handler);
  }

  private async open(): Promise<void> {
    this.teardown();
    const attemptId = this.attemptId;
    this.setState('connecting');
    // The timeout covers resolving the URL too: a hanging config request must not stall us.
    this.lifecycle.startConnectTimer(() => this.lose());
    let url: string;
    try {
      url = await this.options.url();
    } catch {
      if (attemptId === this.attemptId) this.lose();
      return;
    }
    if (attemptId !== this.attemptId) return;
    const token = this.options.token();
    const Constructor = this.options.WebSocket ?? (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
    if (token === null || token === '' || Constructor === undefined) {
      this.giveUp();
      return;
    }
    let socket: WebSocket;
    try {
      socket = new Constructor(url);
    } catch {
      this.giveUp(); // a malformed URL will not heal by retrying
      return;
    }
    this.lifecycle.attach(socket);
    socket.onopen = () => writeFrame(socket, { type: 'authenticate_with_token', token });
    socket.onmessage = (event: MessageEvent) => this.receive(socket, event.data);
    socket.onclose = (event: CloseEvent) => {
      if (socket === this.lifecycle.socket) this.lose(event.code);
    };
  }

  private receive(socket: WebSocket, data: unknown): void {
    if (socket !== this.lifecycle.socket) return;
    const frame = parseServerFrame(data);
    if (frame === null) return;
    switch (frame.type) {
      case 'authSuccess':
        this.onAuthenticated();
        break;
      case 'authError':
        this.events.emit('authError', frame);
        this.giveUp();
        return;
      case 'pong':
        this.lifecycle.pong();
        break;
      case 'new_message':
        this.resumePoints.noteMessage(frame.message.chat_id, frame.message.seq);
        break;
      case 'joined':
        this.resumePoints.noteJoined(frame.chat_id, frame.last_seq, frame.has_more === true);
        break;
      case 'chat_removed':
      case 'chat_deleted':
        this.resumePoints.forget(frame.chat_id);
        break;
      default:
        break;
    }
    this.events.emit(frame.type, frame as never);
  }

  private onAuthenticated(): void {
    this.lifecycle.authenticated(() => this.lose());
    this.reconnectAttempt = 0;
    this.setState('connected');
    for (const chatId of this.resumePoints.chatIds()) this.sendJoin(chatId);
  }

  private sendJoin(chatId: string): void {
    const afterSeq = this.resumePoints.get(chatId);
    this.send(afterSeq === undefined ? { type: 'join_chat', chat_id: chatId } : { type: 'join_chat', chat_id: chatId, after_seq: afterSeq });
  }

  /** The socket or the attempt is gone without close() being called: retry while it makes sense. */
  private lose(closeCode?: number): void {
    this.teardown();
    const token = this.options.token();
    // 4001 follows authError or a password change: the same token would be refused again.
    if (closeCode === closeCodes.authenticationFailed || token === null || token === '') {
      this.giveUp();
      return;
    }
    this.reconnectAttempt += 1;
    if (this.reconnectAttempt > this.timings.maxReconnectAttempts) {
      this.giveUp();
      return;
    }
    const delayMs = reconnectDelayMs(this.reconnectAttempt, {
      initialDelayMs: this.timings.reconnectBaseDelayMs,
      maxDelayMs: this.timings.reconnectMaxDelayMs,
    });
    this.setState('connecting');
    this.events.emit('reconnecting', { attempt: this.reconnectAttempt, delayMs });
    this.lifecycle.scheduleReconnect(delayMs, () => void this.open());
  }

  /** Stops without retrying; joined chats are kept so a later connect() resumes them. */
  private giveUp(): void {
    this.teardown();
    this.setState('closed');
  }

  private teardown(): void {
    this.attemptId += 1;
    this.lifecycle.teardown(abandonedCloseCode);
  }

  private setState(state: RealtimeState): void {
    const previous = this.currentState;
    if (previous === state) return;
    this.currentState = state;
    this.events.emit('state', { state, previous });
  }
}

function definedOnly(options: RealtimeTimings): RealtimeTimings {
  const timings: RealtimeTimings = {};
  for (const key of Object.keys(defaultTimings) as (keyof RealtimeTimings)[]) {
    const value = options[key];
    if (value !== undefined) timings[key] = value;
  }
  return timings;
}
