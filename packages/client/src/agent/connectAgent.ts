import type { AgentIdentity, Mention, ServerFrame } from '../protocol';
import { Emitter } from '../realtime/emitter';
import { AgentSocket } from './AgentSocket';
import { AgentError, agentErrorCodes } from './errors';
import { LiveChannel } from './liveChannel';
import { resolveAgentOptions } from './options';
import type { ResolvedAgentOptions } from './options';
import { trackedReply } from './reply';
import type { AgentConnection, AgentConnectionStatus, AgentEventMap, AgentEventType, ConnectAgentOptions, MentionHandler } from './types';

/** How many handled mention ids are remembered to drop the server's re-sends. */
const seenMentionsLimit = 1000;

/**
 * Connects a developer agent to a Confab server with its API key and runs a handler for every
 * mention of it. Throws an AgentError (`invalid_options`) at once for an unusable key, URL or
 * missing WebSocket; a key the server refuses rejects `ready`.
 *
 * @example
 * import { connectAgent } from '@confab/client/agent';
 * const agent = connectAgent({ url: 'http://localhost:8090', apiKey: process.env.CONFAB_API_KEY! });
 * agent.onMention(async (mention, reply) => {
 *   reply.status('thinking…');
 *   await reply.send(`You said: ${mention.content}`);
 * });
 * console.log('connected as', (await agent.ready).username);
 */
export function connectAgent(options: ConnectAgentOptions): AgentConnection {
  const agent = new Agent(resolveAgentOptions(options));
  agent.start();
  return agent;
}

class Agent implements AgentConnection {
  readonly ready: Promise<AgentIdentity>;
  private resolveReady: (identity: AgentIdentity) => void = () => {};
  private rejectReady: (error: AgentError) => void = () => {};
  private readonly events = new Emitter<AgentEventMap>();
  private readonly socket: AgentSocket;
  private readonly channel: LiveChannel;
  private handler: MentionHandler | null = null;
  /** Mentions that arrived before onMention(): unacknowledged until a handler runs them. */
  private waiting: Mention[] = [];
  /** Handled mention ids, oldest first (a Set keeps insertion order). */
  private readonly seen = new Set<string>();
  /** Who this agent is, once authenticated: the chat notice of a failed handler names it. */
  private identity: AgentIdentity | null = null;

  constructor(private readonly options: ResolvedAgentOptions) {
    this.ready = new Promise<AgentIdentity>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // not awaiting ready must not crash the process: errors also go to the logger
    this.socket = new AgentSocket(options, {
      frame: (frame) => this.receive(frame),
      authenticated: (identity) => {
        this.identity = identity;
        this.resolveReady(identity);
        this.channel.reconnected();
        this.events.emit('connected', { identity });
      },
      disconnected: (code, retryInMs) => {
        if (retryInMs === null) {
          const error = new AgentError(agentErrorCodes.disconnected, 'The connection dropped and reconnect is off: the agent has stopped.');
          this.rejectReady(error);
          this.channel.closeAll(error);
        } else {
          this.channel.disconnected();
        }
        this.events.emit('disconnected', { code, retryInMs });
      },
      refused: (serverMessage, afterSuccess) => this.refused(serverMessage, afterSuccess),
      status: (status) => this.events.emit('status', { status }),
    });
    this.channel = new LiveChannel(this.socket, options.replyTimeoutMs, (error) => this.report(error));
  }

  get status(): AgentConnectionStatus {
    return this.socket.status;
  }

  start(): void {
    this.socket.start();
  }

  onMention(handler: MentionHandler): void {
    if (typeof handler !== 'function') throw new AgentError(agentErrorCodes.invalidOptions, 'onMention takes a function: async (mention, reply) => { … }.');
    this.handler = handler;
    const waiting = this.waiting;
    this.waiting = [];
    for (const mention of waiting) this.run(mention, handler);
  }

  on<Type extends AgentEventType>(type: Type, listener: (event: AgentEventMap[Type]) => void): () => void {
    return this.events.on(type, listener);
  }

  async close(): Promise<void> {
    this.rejectReady(new AgentError(agentErrorCodes.closed, 'The agent was closed before it connected.'));
    this.waiting = [];
    this.channel.closeAll(new AgentError(agentErrorCodes.closed, 'The agent was closed before the server confirmed the reply.'));
    await this.socket.close();
  }

  private receive(frame: ServerFrame): void {
    if (frame.type !== 'mention') {
      this.channel.receive(frame);
      return;
    }
    const mention: unknown = frame.mention;
    if (!isMention(mention)) {
      this.report(new AgentError('invalid_frame', 'A mention frame without a readable mention was ignored.'));
      return;
    }
    const id = mention.mention_id;
    if (this.seen.has(id)) {
      this.acknowledge(id); // a re-send: our earlier ack was lost with the connection
    } else if (this.handler === null) {
      if (!this.waiting.some((waiting) => waiting.mention_id === id)) this.waiting.push(mention);
    } else {
      this.run(mention, this.handler);
    }
  }

  /** Calls the handler, acknowledges once it has been called, and reports its failure without awaiting it. */
  private run(mention: Mention, handler: MentionHandler): void {
    this.remember(mention.mention_id);
    this.events.emit('mention', { mention });
    const { reply, endWithNotice } = trackedReply(mention, this.channel, (message, streamed) => this.events.emit('reply', { mention, message, streamed }));
    let running: Promise<void>;
    try {
      running = Promise.resolve(handler(mention, reply));
    } catch (error) {
      running = Promise.reject(error);
    }
    this.acknowledge(mention.mention_id);
    running.catch((error: unknown) => {
      const message = `The mention handler failed (mention ${mention.mention_id} in chat ${mention.chat_id}): ${describe(error)}`;
      this.report(new AgentError(agentErrorCodes.handlerFailed, message, { cause: error }), mention);
      // The person who asked sees that it failed, rather than a reply that never comes; the
      // details (the stack) stay in the agent's own log above.
      const who = this.identity === null ? 'The agent' : `@${this.identity.username}`;
      void endWithNotice(`${who} could not answer: ${shortError(error)}`);
    });
  }

  private acknowledge(mentionId: string): void {
    this.socket.send({ type: 'mention_ack', mention_id: mentionId }); // when down, the server re-sends it and we ack the repeat
  }

  private remember(mentionId: string): void {
    this.seen.add(mentionId);
    if (this.seen.size <= seenMentionsLimit) return;
    const oldest = this.seen.values().next();
    if (oldest.done !== true) this.seen.delete(oldest.value);
  }

  private refused(serverMessage: string | null, afterSuccess: boolean): void {
    const reason = serverMessage === null || serverMessage.trim() === '' ? '' : ` (${serverMessage.trim()})`;
    const error = afterSuccess
      ? new AgentError(agentErrorCodes.invalidApiKey, `Invalid API key: the server revoked it${reason} (the key was rotated or the agent deleted). The agent has stopped.`)
      : new AgentError(agentErrorCodes.invalidApiKey, `Invalid API key: the server refused it${reason}. Check the key (cfk_…): it may be mistyped, rotated or its agent deleted.`);
    this.rejectReady(error);
    this.channel.closeAll(error);
    this.events.emit('disconnected', { code: 4001, retryInMs: null });
    this.report(error);
  }

  private report(error: AgentError, mention?: Mention): void {
    const cause = error.cause;
    if (cause === undefined) this.options.logger.error(error.message);
    else this.options.logger.error(error.message, cause);
    this.events.emit('error', mention === undefined ? { error } : { error, mention });
  }
}

function isMention(value: unknown): value is Mention {
  if (typeof value !== 'object' || value === null) return false;
  const mention = value as Record<string, unknown>;
  return (
    typeof mention['mention_id'] === 'string' &&
    mention['mention_id'] !== '' &&
    typeof mention['chat_id'] === 'string' &&
    mention['chat_id'] !== '' &&
    typeof mention['content'] === 'string'
  );
}

/** `TypeError: x is not a function`: the error's name and the first line of its message, kept short. */
function shortError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
