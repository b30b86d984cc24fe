import type { AddReactionFrame, AgentStatusFrame, EditMessageFrame, ReactionSummary, SendMessageFrame, ServerFrame, StreamStartFrame, WireMessage } from '../protocol';
import type { AgentSocket } from './AgentSocket';
import { AgentError, agentErrorCodes } from './errors';
import type { ReplyChannel } from './reply';

type Timer = ReturnType<typeof setTimeout>;

interface Waiter {
  /** A stored or edited message, or (for a reaction) the message's reaction summary. */
  resolve(answer: WireMessage | ReactionSummary[]): void;
  reject(error: AgentError): void;
  timer: Timer;
  /** A frame to write again after a reconnect: a send_message (the server stores one message per client_id) or an edit. */
  resend?: SendMessageFrame | EditMessageFrame | AddReactionFrame;
}

interface OpenStream {
  /** The authenticated connection it was opened on: the server forgets it when that one closes. */
  connection: number;
  /** Why it can no longer be stored (the server's refusal, a dropped connection). */
  error: AgentError | null;
}

/**
 * Replies over the agent's socket: writes the frames and matches the server's answers to them,
 * `new_message` by client_id or stream_id, `error` frames by `ref`.
 */
export class LiveChannel implements ReplyChannel {
  private readonly waiters = new Map<string, Waiter>();
  private readonly streams = new Map<string, OpenStream>();
  /** Set for good by closeAll(): later replies fail at once instead of holding a timer. */
  private closedError: AgentError | null = null;

  constructor(
    private readonly socket: AgentSocket,
    private readonly timeoutMs: number,
    /** An error frame that answers none of our replies (e.g. a refused status). */
    private readonly onUnmatchedError: (error: AgentError) => void,
  ) {}

  send(frame: SendMessageFrame & { client_id: string }): Promise<WireMessage> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    const stored = this.wait(frame.client_id, frame);
    this.socket.send(frame); // when down, the waiter's resend goes out on reconnect
    return stored;
  }

  startStream(frame: StreamStartFrame): void {
    this.streams.set(frame.stream_id, { connection: this.socket.connection, error: null });
    if (!this.socket.send(frame)) this.dropped(frame.stream_id);
  }

  appendStream(streamId: string, text: string): void {
    const stream = this.streams.get(streamId);
    if (stream === undefined || stream.error !== null) return;
    if (stream.connection !== this.socket.connection || !this.socket.send({ type: 'stream_append', stream_id: streamId, text })) this.dropped(streamId);
  }

  async endStream(streamId: string, empty: boolean): Promise<WireMessage | null> {
    const stream = this.streams.get(streamId);
    this.streams.delete(streamId);
    if (this.closedError !== null) throw this.closedError;
    if (stream === undefined) throw new AgentError(agentErrorCodes.invalidReply, `Unknown stream ${streamId}.`);
    if (stream.error === null && stream.connection !== this.socket.connection) this.dropped(streamId, stream);
    if (stream.error !== null) throw stream.error;
    if (empty) {
      this.socket.send({ type: 'stream_end', stream_id: streamId });
      return null;
    }
    const stored = this.wait(streamId);
    if (!this.socket.send({ type: 'stream_end', stream_id: streamId })) this.settle(streamId, disconnectedError());
    return stored;
  }

  status(frame: AgentStatusFrame): void {
    this.socket.send(frame); // a status is of the moment: not worth sending late
  }

  edit(frame: EditMessageFrame): Promise<WireMessage> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    // Answered by message_updated for the id, or an error frame naming it; an edit is idempotent,
    // so one written while the connection is down goes out again on reconnect.
    const edited = this.wait(frame.message_id, frame);
    this.socket.send(frame);
    return edited;
  }

  /**
   * Answered by reactions_changed for the message, or an error frame naming it. Adding is
   * idempotent, so one written while the connection is down goes out again on reconnect.
   */
  react(frame: AddReactionFrame): Promise<ReactionSummary[]> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    const reacted = this.wait(reactionRef(frame.message_id), frame) as Promise<unknown> as Promise<ReactionSummary[]>;
    this.socket.send(frame);
    return reacted;
  }

  /** Every frame after authSuccess goes through here. */
  receive(frame: ServerFrame): void {
    if (frame.type === 'new_message') {
      const ref = [frame.client_id, frame.stream_id].find((id) => id !== undefined && this.waiters.has(id));
      if (ref !== undefined) this.settle(ref, frame.message);
    } else if (frame.type === 'message_updated') {
      this.settle(frame.message.message_id, frame.message);
    } else if (frame.type === 'reactions_changed') {
      this.settle(reactionRef(frame.message_id), frame.reactions);
    } else if (frame.type === 'error') {
      const error = new AgentError(frame.code, frame.message);
      const stream = frame.ref === undefined ? undefined : this.streams.get(frame.ref);
      if (stream !== undefined) stream.error ??= error;
      if (frame.ref !== undefined && this.waiters.has(frame.ref)) this.settle(frame.ref, error);
      else if (frame.ref !== undefined && this.waiters.has(reactionRef(frame.ref))) this.settle(reactionRef(frame.ref), error);
      else if (stream === undefined) this.onUnmatchedError(error);
    }
  }

  /** After a reconnect: unconfirmed whole replies go out again, with the same client_id. */
  reconnected(): void {
    for (const waiter of this.waiters.values()) if (waiter.resend !== undefined) this.socket.send(waiter.resend);
  }

  /**
   * The connection dropped: open streams are gone with it (the server keeps what it had), and a
   * stream_end's confirmation can no longer arrive. Whole replies wait for the reconnect.
   */
  disconnected(): void {
    for (const stream of this.streams.values()) stream.error ??= disconnectedError();
    for (const [ref, waiter] of [...this.waiters]) if (waiter.resend === undefined) this.settle(ref, disconnectedError());
  }

  /** The agent stopped (close(), a refused key, a drop without reconnect): every waiting and later reply rejects with `error`, no timer stays. */
  closeAll(error: AgentError): void {
    this.closedError = error;
    for (const ref of [...this.waiters.keys()]) this.settle(ref, error);
    this.streams.clear();
  }

  private wait(ref: string, resend?: SendMessageFrame | EditMessageFrame | AddReactionFrame): Promise<WireMessage> {
    return new Promise<WireMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(ref, new AgentError(agentErrorCodes.timeout, `The server did not confirm the reply within ${this.timeoutMs / 1000} s.`)),
        this.timeoutMs,
      );
      this.waiters.set(ref, { resolve: resolve as Waiter['resolve'], reject, timer, ...(resend === undefined ? {} : { resend }) });
    });
  }

  private settle(ref: string, outcome: WireMessage | ReactionSummary[] | AgentError): void {
    const waiter = this.waiters.get(ref);
    if (waiter === undefined) return;
    this.waiters.delete(ref);
    clearTimeout(waiter.timer);
    if (outcome instanceof AgentError) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }

  private dropped(streamId: string, stream = this.streams.get(streamId)): void {
    if (stream !== undefined) stream.error ??= disconnectedError();
  }
}

/** A reaction's waiter, apart from an edit of the same message (both are answered by message id). */
function reactionRef(messageId: string): string {
  return `reaction:${messageId}`;
}

function disconnectedError(): AgentError {
  return new AgentError(agentErrorCodes.disconnected, 'The connection dropped during the streamed reply: the server keeps what it had received.');
}
