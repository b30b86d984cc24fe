import { WebSocket } from 'ws';
import { closeCodes } from './protocol';

/** Limits every connection shares; one object per gateway, not per socket. */
export interface ConnectionLimits {
  /** Sustained client frames per second; the bucket refills at this rate. */
  framesPerSecond: number;
  /** Frames a client may send in a burst. */
  frameBurst: number;
  /** A socket whose unsent bytes exceed this is a slow consumer and is dropped. */
  maxBufferedBytes: number;
}

const textFrame = { binary: false } as const;
/** Joined, but the join's replay is still running: live frames wait in `replayBuffers`. */
export const replaying = -1;

/**
 * One socket's state, kept deliberately small (the benchmark compares memory per idle socket
 * with bare ws): the user id, joined chats with the highest seq delivered, and a token bucket.
 */
export class Connection {
  userId: string | undefined;
  /** Set when the socket authenticated with an agent's API key. */
  agentId: string | undefined;
  /** Chat id → highest seq delivered (or `replaying`). Created on the first join. */
  joined: Map<string, number> | undefined;
  replayBuffers: Map<string, { seq: number; data: Buffer }[]> | undefined;
  /** Set while a token is verified, so frames sent right behind it wait for the answer. */
  authenticating: Promise<void> | undefined;
  authTimer: NodeJS.Timeout | undefined;
  private tokens: number;
  private refilledAtMs: number;

  constructor(
    readonly socket: WebSocket,
    private readonly limits: ConnectionLimits,
  ) {
    this.tokens = limits.frameBurst;
    this.refilledAtMs = Date.now();
  }

  /** Token bucket: false when the client sends faster than the limit. */
  allowFrame(nowMs: number): boolean {
    const elapsedSeconds = (nowMs - this.refilledAtMs) / 1000;
    this.tokens = Math.min(this.limits.frameBurst, this.tokens + elapsedSeconds * this.limits.framesPerSecond);
    this.refilledAtMs = nowMs;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /**
   * Sends unless the socket is gone; a slow consumer is closed instead of buffered without bound.
   * Its close frame follows what is already queued, so a client that reads again sees 4008 after
   * the last message it got; one that stays stalled is cut when ws's 30 s closing handshake ends.
   * Either way nothing more is queued for it, and it reconnects and resumes with after_seq.
   */
  send(data: string | Buffer): void {
    const socket = this.socket;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > this.limits.maxBufferedBytes) {
      socket.close(closeCodes.tooSlow, 'Too slow: reconnect and resume with after_seq');
      return;
    }
    socket.send(data, textFrame);
  }

  /** A live message of a joined chat: sent once, in order, never below what was already sent. */
  deliver(chatId: string, seq: number, data: Buffer): void {
    const delivered = this.joined?.get(chatId);
    if (delivered === undefined) return;
    if (delivered === replaying) {
      this.replayBuffers?.get(chatId)?.push({ seq, data });
      return;
    }
    if (seq <= delivered) return;
    this.joined?.set(chatId, seq);
    this.send(data);
  }

  /** A frame of a joined chat outside the message sequence (stream progress, status): sent as it comes. */
  deliverOutOfSequence(chatId: string, data: Buffer): void {
    if (this.joined?.has(chatId) === true) this.send(data);
  }

  startReplay(chatId: string): void {
    this.joined ??= new Map();
    this.replayBuffers ??= new Map();
    this.joined.set(chatId, replaying);
    this.replayBuffers.set(chatId, []);
  }

  /** Ends a replay at `deliveredSeq` and sends what arrived live meanwhile, minus duplicates. */
  finishReplay(chatId: string, deliveredSeq: number): void {
    const buffered = this.replayBuffers?.get(chatId) ?? [];
    this.replayBuffers?.delete(chatId);
    if (this.replayBuffers?.size === 0) this.replayBuffers = undefined;
    if (this.joined?.get(chatId) !== replaying) return;
    this.joined.set(chatId, deliveredSeq);
    for (const frame of buffered.sort((a, b) => a.seq - b.seq)) this.deliver(chatId, frame.seq, frame.data);
  }

  leave(chatId: string): boolean {
    this.replayBuffers?.delete(chatId);
    return this.joined?.delete(chatId) ?? false;
  }
}
