import WebSocket from 'ws';
import type { WireMessage } from '@confab/client/protocol';

/** A received server frame (JSON object with a `type`). */
export type Frame = Record<string, unknown> & { type: string };

export function websocketUrl(httpUrl: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}/api/ws`;
}

/**
 * A real `ws` client for protocol tests: received frames queue up and `next` takes the first
 * one matching a predicate, waiting for it when it has not arrived yet.
 */
export class TestSocket {
  readonly received: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      const waiter = this.waiters.find((candidate) => candidate.predicate(frame));
      if (waiter === undefined) this.received.push(frame);
      else {
        this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
        waiter.resolve(frame);
      }
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async open(httpUrl: string, headers: Record<string, string> = {}): Promise<TestSocket> {
    const socket = new WebSocket(websocketUrl(httpUrl), { headers });
    const client = new TestSocket(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  /** The first frame (queued or future) matching the predicate; fails after `timeoutMs`. */
  next(predicate: (frame: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> {
    const index = this.received.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0] as Frame);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((candidate) => candidate.resolve !== done);
        reject(new Error(`no matching frame within ${timeoutMs} ms; queued: ${JSON.stringify(this.received).slice(0, 500)}`));
      }, timeoutMs);
      const done = (frame: Frame) => {
        clearTimeout(timer);
        resolve(frame);
      };
      this.waiters.push({ predicate, resolve: done });
    });
  }

  nextOfType(type: string, timeoutMs?: number): Promise<Frame> {
    return this.next((frame) => frame.type === type, timeoutMs);
  }

  /** Frames matching the predicate that arrive within `windowMs` (consumed). */
  async collect(predicate: (frame: Frame) => boolean, windowMs: number): Promise<Frame[]> {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const matching = this.received.filter(predicate);
    for (const frame of matching) this.received.splice(this.received.indexOf(frame), 1);
    return matching;
  }

  async authenticate(token: string): Promise<Frame> {
    this.send({ type: 'authenticate_with_token', token });
    return this.next((frame) => frame.type === 'authSuccess' || frame.type === 'authError');
  }

  /** Joins and returns the replayed messages and the joined frame. */
  async join(chatId: string, afterSeq?: number): Promise<{ replayed: WireMessage[]; joined: Frame }> {
    this.send({ type: 'join_chat', chat_id: chatId, ...(afterSeq === undefined ? {} : { after_seq: afterSeq }) });
    const joined = await this.next((frame) => (frame.type === 'joined' || frame.type === 'error') && (frame['chat_id'] === chatId || frame['ref'] === chatId));
    if (joined.type === 'error') throw new Error(`join refused: ${JSON.stringify(joined)}`);
    const replayed: WireMessage[] = [];
    // Replayed frames precede `joined`, so they are all queued by now.
    for (;;) {
      const index = this.received.findIndex((frame) => frame.type === 'new_message' && messageOf(frame).chat_id === chatId);
      if (index < 0) break;
      const seq = messageOf(this.received[index] as Frame).seq;
      if (seq > Number(joined['last_seq'])) break;
      replayed.push(messageOf(this.received.splice(index, 1)[0] as Frame));
    }
    return { replayed, joined };
  }

  async nextMessage(chatId?: string, timeoutMs?: number): Promise<WireMessage> {
    const frame = await this.next((candidate) => candidate.type === 'new_message' && (chatId === undefined || messageOf(candidate).chat_id === chatId), timeoutMs);
    return messageOf(frame);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }
}

export type { WireMessage };

export function messageOf(frame: Frame): WireMessage {
  return frame['message'] as WireMessage;
}

export async function authenticatedSocket(httpUrl: string, token: string): Promise<TestSocket> {
  const socket = await TestSocket.open(httpUrl);
  const answer = await socket.authenticate(token);
  if (answer.type !== 'authSuccess') throw new Error(`auth failed: ${JSON.stringify(answer)}`);
  return socket;
}
