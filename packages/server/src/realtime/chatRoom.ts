import type { Bus } from './bus';
import { chatChannel, isChatFrameEvent, isMessageEvent, type MessageEvent } from './channels';
import type { Connection } from './connection';

/** Loads stored frames after a seq (for gaps between instances' publishes). */
export type FrameLoader = (chatId: string, afterSeq: number, limit: number) => Promise<{ seq: number; frame: string }[]>;

/**
 * The sockets of this instance joined to one chat. Messages reach it over the bus, possibly out
 * of seq order when several instances publish; the room delivers them strictly in seq order,
 * reading any missing seq from the database (it is committed: a seq is only assigned after the
 * previous one committed). Each frame is encoded once and the same bytes go to every socket.
 */
export class ChatRoom {
  readonly connections = new Set<Connection>();
  lastSeq = 0;
  private readonly pending: MessageEvent[] = [];
  private draining = true;
  private readonly unsubscribe: () => void;

  constructor(
    readonly chatId: string,
    bus: Bus,
    private readonly load: FrameLoader,
    private readonly onError: (error: unknown) => void,
    /** Told, once per live message written to this room's sockets, the ms since it was stored. */
    private readonly onFannedOut: (latencyMs: number) => void = () => undefined,
  ) {
    this.unsubscribe = bus.subscribe(chatChannel(chatId), (payload) => {
      if (isMessageEvent(payload)) this.receive(payload);
      else if (isChatFrameEvent(payload)) {
        const data = Buffer.from(payload.frame);
        const skipped = payload.skip_user_id;
        for (const connection of this.connections) {
          if (skipped === undefined || connection.userId !== skipped) connection.deliverOutOfSequence(this.chatId, data);
        }
      }
    });
  }

  /** Called once the subscription is live and the chat's last seq is known. */
  start(lastSeq: number): void {
    this.lastSeq = lastSeq;
    this.draining = false;
    if (this.pending.length > 0) void this.drain();
  }

  private receive(event: MessageEvent): void {
    if (!this.draining && this.pending.length === 0 && event.seq === this.lastSeq + 1) {
      this.lastSeq = event.seq;
      this.broadcast(event.seq, Buffer.from(event.frame), event.stored_at_ms);
      return;
    }
    if (event.seq <= this.lastSeq) return;
    this.pending.push(event);
    if (!this.draining) void this.drain();
  }

  /** `storedAtMs` for a live message: after its frame is written to every socket, the latency is told. */
  private broadcast(seq: number, data: Buffer, storedAtMs?: number): void {
    for (const connection of this.connections) connection.deliver(this.chatId, seq, data);
    // Another instance's clock may be a little ahead: a negative latency says nothing.
    if (storedAtMs !== undefined && this.connections.size > 0) {
      const latencyMs = Date.now() - storedAtMs;
      if (latencyMs >= 0) this.onFannedOut(latencyMs);
    }
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        this.pending.sort((a, b) => a.seq - b.seq);
        const next = this.pending[0] as MessageEvent;
        if (next.seq > this.lastSeq + 1) await this.fillGap(next.seq);
        this.pending.shift();
        if (next.seq <= this.lastSeq) continue;
        this.lastSeq = next.seq;
        this.broadcast(next.seq, Buffer.from(next.frame), next.stored_at_ms);
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * After the bus was down: whatever was stored up to `latestSeq` and never arrived is read from
   * the database and delivered through the usual path (in seq order, never twice). Read in pages,
   * so a long outage in a busy chat does not load it all at once.
   */
  async catchUp(latestSeq: number, pageSize: number): Promise<void> {
    try {
      let from = this.lastSeq;
      while (from < latestSeq) {
        const frames = await this.load(this.chatId, from, pageSize);
        for (const stored of frames) this.receive({ kind: 'message', chat_id: this.chatId, seq: stored.seq, frame: stored.frame });
        const last = frames.at(-1)?.seq;
        if (last === undefined || frames.length < pageSize) break;
        from = last;
      }
    } catch (error) {
      this.onError(error);
    }
  }

  private async fillGap(beforeSeq: number): Promise<void> {
    try {
      const frames = await this.load(this.chatId, this.lastSeq, beforeSeq - this.lastSeq - 1);
      for (const stored of frames) {
        if (stored.seq <= this.lastSeq || stored.seq >= beforeSeq) continue;
        this.lastSeq = stored.seq;
        this.broadcast(stored.seq, Buffer.from(stored.frame));
      }
    } catch (error) {
      this.onError(error);
    }
    // Whatever is still missing was deleted (or unreadable): sockets resume through after_seq.
    this.lastSeq = Math.max(this.lastSeq, beforeSeq - 1);
  }

  close(): void {
    this.unsubscribe();
    this.connections.clear();
  }
}
