import type {
  AgentNoticeFrame,
  AgentNoticeReason,
  AgentRef,
  AgentStatusChangedFrame,
  Mention,
  MentionFrame,
  NewMessageFrame,
  StreamAbortedFrame,
  StreamDeltaFrame,
  StreamSnapshotFrame,
  StreamStartedFrame,
  ServerFrame,
  WireMessage,
} from '@confab/client/protocol';
import { agentLimits, interruptedReplyText, maxMessageLength } from '@confab/client/protocol';
import { inertMentions } from '@confab/client/rules';
import { ConfabServerError, type FieldErrors } from '../errors';
import { chatChannel, userChannel, type ChatFrameEvent, type UserFrameEvent } from '../realtime/channels';
import { encodeFrame } from '../realtime/protocol';
import { formatTimestamp, newRecordId } from '../store/ids';
import type { AgentMentionRow, AgentStreamRow } from '../store/repositories/agents';
import type { MessageRow } from '../store/repositories/messages';
import type { UserRow } from '../store/repositories/users';
import type { Services } from '../services/index';
import type { AgentPresence } from './presence';

/**
 * How an agent answers, whichever transport carries it: the SDK's `Reply` over a socket for a
 * developer agent, this same shape in-process for a hosted one (transports/inProcess.ts).
 */
export interface AgentReplyChannel {
  post(agent: UserRow, input: { chatId: string; content: string; clientId?: string; mentionId?: string; replyTo?: string }): Promise<WireMessage>;
  startStream(agent: UserRow, input: { chatId: string; streamId: string; mentionId?: string; replyTo?: string }): Promise<void>;
  appendStream(agent: UserRow, streamId: string, text: string): Promise<void>;
  /** `cutOff`: the reply broke off before its end (its provider failed): stored marked `cut_off`. */
  endStream(agent: UserRow, streamId: string, options?: { cutOff?: boolean }): Promise<WireMessage | undefined>;
  setStatus(agent: UserRow, chatId: string, text: string): Promise<void>;
}

/** A hosted agent's code, run in the server: the same contract as a developer agent's handler. */
export type InProcessDelivery = (mention: Mention, agent: UserRow) => Promise<void>;

const sweepIntervalMs = 5_000;

/**
 * What a hosted (confab) agent says, with every mention in it inert but its own name: its text is
 * model output and words it brought in (pages, search results, files, mail), so it must not even
 * look like a mention that a person or an agent repeating it would send on (docs/SECURITY.md G10;
 * the router never routes it either). Its own name stays so its help's examples can be copied.
 */
function spoken(agent: UserRow, text: string): string {
  return agent.type === 'confab-agent' ? inertMentions(text, agent.username) : text;
}

export function agentRef(agent: Pick<UserRow, 'id' | 'username' | 'name'>): AgentRef {
  return { id: agent.id, username: agent.username, name: agent.name === '' ? agent.username : agent.name };
}

/** A stream refusal names its stream, so the SDK can fail the right `end()`. */
export class StreamError extends ConfabServerError {
  constructor(
    readonly frameCode: 'unknown_stream' | 'invalid_message' | 'not_invoked',
    message: string,
  ) {
    super(frameCode === 'not_invoked' ? 'forbidden' : 'badRequest', message);
  }
}

/**
 * The agent runtime (ARCHITECTURE "Agents"): builds and delivers mentions, keeps the offline
 * queue and the growing streams, and is the one reply channel both transports use. Mentions,
 * grants and streams live in the database, so every instance sees the same state; frames travel
 * on the bus to whichever instance holds the sockets.
 */
export class AgentRuntime implements AgentReplyChannel {
  private readonly hosted = new Map<string, InProcessDelivery>();
  /** Every confab agent without a handler of its own (admin-made personas) is delivered here. */
  private hostedFallback: InProcessDelivery | undefined;
  private readonly closers: (() => Promise<void>)[] = [];
  /** Appends of one stream run one after another (frames of one socket arrive in order). */
  private readonly streamQueues = new Map<string, Promise<unknown>>();
  /** Agent id → chats where this instance showed a status line of it not yet cleared. */
  private readonly statusLines = new Map<string, Set<string>>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly services: Services,
    readonly presence: AgentPresence,
  ) {
    this.sweepTimer = setInterval(() => void this.sweep(), sweepIntervalMs);
    this.sweepTimer.unref();
  }

  private get context() {
    return this.services.context;
  }

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }

  private queueMs(): number {
    return this.context.config.agentQueueMinutes * 60 * 1000;
  }

  /** Registers the in-process transport of a hosted agent (by username). */
  registerHosted(username: string, deliver: InProcessDelivery): void {
    this.hosted.set(username.toLowerCase(), deliver);
  }

  /** Registers the in-process delivery of confab agents that have no handler by username (personas). */
  registerHostedFallback(deliver: InProcessDelivery): void {
    this.hostedFallback = deliver;
  }

  // ---- mentions ----

  /** Stores a mention (references only) for the agent; it waits until acknowledged or expired. */
  async record(agent: UserRow, input: { chatId: string; messageId: string; reason: Mention['reason']; hop: number }): Promise<AgentMentionRow> {
    const now = this.context.config.now();
    const row: AgentMentionRow = {
      id: newRecordId(),
      agent: agent.id,
      chat: input.chatId,
      message: input.messageId,
      reason: input.reason,
      hop: input.hop,
      created: formatTimestamp(now),
      expires: formatTimestamp(new Date(now.getTime() + Math.max(this.queueMs(), agentLimits.invocationMs))),
      acked_at: null,
    };
    await this.context.store.agents.insertMention(row);
    return row;
  }

  /** The mention as the agent's handler receives it: the message in plaintext, the chat, the author, the recent context. */
  async build(row: AgentMentionRow): Promise<Mention | undefined> {
    const store = this.context.store;
    const [message, chat] = await Promise.all([store.messages.findById(row.message), store.chats.findById(row.chat)]);
    if (message === undefined || chat === undefined) return undefined;
    const author = await store.users.findById(message.author);
    const context = await store.messages.listBeforeSeq(chat.id, Number(message.seq), agentLimits.contextMessages);
    const messaging = this.services.messaging;
    return {
      mention_id: row.id,
      reason: row.reason === 'auto_route' ? 'auto_route' : 'mention',
      message_id: message.id,
      chat_id: chat.id,
      chat_name: chat.name,
      content: messaging.decrypt(message),
      author_id: message.author,
      author_name: author === undefined ? '' : author.name === '' ? author.username : author.name,
      author_username: author?.username ?? '',
      author_is_agent: author !== undefined && author.type !== 'user',
      created_at: message.created,
      context: context.map((stored) => messaging.toWire(stored, { name: stored.author_name, username: stored.author_username, type: stored.author_type })),
      hop: Number(row.hop),
      ...(await this.threadOf(message)),
    };
  }

  /** A reply's thread as the mention's context (docs/CONTRACTS.md, Replies); nothing for a message that replies to nothing. */
  private async threadOf(message: MessageRow): Promise<Pick<Mention, 'thread' | 'reply_to'>> {
    const messaging = this.services.messaging;
    const thread = await messaging.replies.threadOf(message);
    if (thread === undefined || message.reply_to === null) return {};
    const previews = await messaging.replies.previewsFor(thread);
    return {
      reply_to: message.reply_to,
      thread: thread.map((stored) => messaging.toWire(stored, { name: stored.author_name, username: stored.author_username, type: stored.author_type }, { preview: previews.get(stored.reply_to ?? '') })),
    };
  }

  /**
   * Hands a stored mention to its agent: in-process for a hosted agent with a handler (or the
   * fallback for confab agents without one: personas); over the
   * bus to the sockets of a developer agent that is online anywhere. 'waiting' means it stays
   * queued until the agent connects (or the queue window ends).
   */
  async deliver(agent: UserRow, row: AgentMentionRow): Promise<'delivered' | 'waiting'> {
    const inProcess = this.hosted.get(agent.username.toLowerCase()) ?? (agent.type === 'confab-agent' ? this.hostedFallback : undefined);
    if (inProcess !== undefined) {
      const mention = await this.build(row);
      if (mention === undefined) return 'delivered';
      await this.context.store.agents.ackMention(row.id, agent.id, this.now());
      this.context.metrics.agentMentionsDelivered.inc({ agent: 'hosted' });
      inProcess(mention, agent).catch((error: unknown) => this.context.logger.error({ error: String(error), agent: agent.username }, 'hosted agent failed'));
      return 'delivered';
    }
    if (agent.type !== 'developer-agent' || !(await this.presence.isOnline(agent.id))) return 'waiting';
    const mention = await this.build(row);
    if (mention !== undefined) {
      await this.toUser(agent.id, { type: 'mention', mention } satisfies MentionFrame);
      this.context.metrics.agentMentionsDelivered.inc({ agent: 'developer' });
    }
    return 'delivered';
  }

  /** Frames of every unacknowledged, unexpired mention of the agent, oldest first (sent on connect). */
  async pendingFrames(agentId: string): Promise<string[]> {
    const rows = await this.context.store.agents.pendingMentions(agentId, this.now(), 200);
    const frames: string[] = [];
    for (const row of rows) {
      const mention = await this.build(row);
      if (mention !== undefined) frames.push(encodeFrame({ type: 'mention', mention } satisfies MentionFrame));
    }
    // Sent as soon as this answers (the agent's socket just authenticated): delivered from the queue.
    if (frames.length > 0) this.context.metrics.agentMentionsDelivered.inc({ agent: 'developer' }, frames.length);
    return frames;
  }

  async acknowledge(agent: UserRow, mentionId: string): Promise<void> {
    await this.context.store.agents.ackMention(mentionId, agent.id, this.now());
  }

  /** A notice only the sender sees (their sockets, every instance). */
  async notice(sender: UserRow, input: { chatId: string; messageId: string; agentUsername: string; reason: AgentNoticeReason; text: string }): Promise<void> {
    const frame: AgentNoticeFrame = {
      type: 'agent_notice',
      chat_id: input.chatId,
      message_id: input.messageId,
      agent_username: input.agentUsername,
      reason: input.reason,
      text: input.text,
    };
    await this.toUser(sender.id, frame);
  }

  // ---- replies (the reply channel of both transports) ----

  async post(agent: UserRow, input: { chatId: string; content: string; clientId?: string; mentionId?: string; replyTo?: string }): Promise<WireMessage> {
    const content = spoken(agent, input.content);
    const posted = await this.services.messaging.post(agent, { chatId: input.chatId, content, clientId: input.clientId, mentionId: input.mentionId, replyTo: input.replyTo });
    await this.clearStatus(agent, input.chatId);
    // The new_message's own message: with the reply's preview of its original.
    return (JSON.parse(posted.frame) as NewMessageFrame).message;
  }

  async startStream(agent: UserRow, input: { chatId: string; streamId: string; mentionId?: string; replyTo?: string }): Promise<void> {
    const streamId = input.streamId.trim();
    if (streamId === '' || streamId.length > agentLimits.streamIdMaxLength) {
      throw new StreamError('invalid_message', `stream_id must be 1 to ${agentLimits.streamIdMaxLength} characters`);
    }
    await this.mayAct(agent, input.chatId, input.mentionId);
    // Checked now, not when the reply is stored: a refused stream shows nothing growing.
    const problems: FieldErrors = {};
    const reply = await this.services.messaging.replies.target(problems, input.chatId, input.replyTo);
    if (problems['reply_to'] !== undefined) throw new StreamError('invalid_message', `reply_to: ${problems['reply_to'].message}`);
    const now = this.now();
    if ((await this.context.store.agents.findStream(agent.id, streamId)) !== undefined) {
      throw new StreamError('invalid_message', `stream ${streamId} is already open`);
    }
    await this.context.store.agents.insertStream({
      id: newRecordId(),
      stream_key: streamId,
      agent: agent.id,
      chat: input.chatId,
      mention: input.mentionId ?? null,
      reply_to: reply?.named.id ?? null,
      text_encrypted: this.context.messageCipher.encrypt(''),
      length: 0,
      started: now,
      updated: now,
    });
    const frame: StreamStartedFrame = { type: 'stream_started', chat_id: input.chatId, stream_id: streamId, agent: agentRef(agent), started_at: now };
    await this.toChat(input.chatId, frame);
    // The reply now shows itself growing: a "thinking…" line under it would only say it twice.
    await this.clearStatus(agent, input.chatId);
  }

  appendStream(agent: UserRow, streamId: string, text: string): Promise<void> {
    return this.serialised(agent.id, streamId, async () => {
      const stream = await this.openStream(agent, streamId);
      if (text === '') return;
      const before = this.context.messageCipher.decrypt(stream.text_encrypted);
      const after = before + text;
      if (after.length > maxMessageLength) {
        throw new StreamError('invalid_message', `a reply is limited to ${maxMessageLength} characters; end the stream and start another`);
      }
      await this.context.store.agents.updateStream(stream.id, this.context.messageCipher.encrypt(after), after.length, this.now());
      // Inert over the whole text: a mention may straddle two appends (the stored reply is exact).
      const delta = spoken(agent, after).slice(before.length);
      const frame: StreamDeltaFrame = { type: 'stream_delta', chat_id: stream.chat, stream_id: streamId, offset: before.length, text: delta };
      await this.toChat(stream.chat, frame);
    });
  }

  endStream(agent: UserRow, streamId: string, options: { cutOff?: boolean } = {}): Promise<WireMessage | undefined> {
    return this.serialised(agent.id, streamId, async () => this.finish(agent, await this.openStream(agent, streamId), { cutOff: options.cutOff === true }));
  }

  async setStatus(agent: UserRow, chatId: string, text: string): Promise<void> {
    await this.mayAct(agent, chatId);
    const line = text.slice(0, agentLimits.statusMaxLength);
    this.noteStatus(agent.id, chatId, line !== '');
    const frame: AgentStatusChangedFrame = { type: 'agent_status', chat_id: chatId, agent: agentRef(agent), text: line };
    await this.toChat(chatId, frame);
  }

  /**
   * The agent went offline (its last socket closed, a process killed included): nobody will end
   * its streams or clear its status lines, so the server does, now rather than after the idle
   * timeout. Each open stream is stored with what it holds and marked interrupted.
   */
  async interrupt(agent: UserRow): Promise<void> {
    for (const stream of await this.context.store.agents.streamsOfAgent(agent.id)) {
      await this.serialised(agent.id, stream.stream_key, () => this.finish(agent, stream, { interrupted: true }));
    }
    for (const chatId of [...(this.statusLines.get(agent.id) ?? [])]) await this.clearStatus(agent, chatId);
  }

  /** Every reply still growing in the chat, as snapshots for a socket that just joined. */
  async snapshots(chatId: string): Promise<string[]> {
    const streams = await this.context.store.agents.openStreams(chatId);
    const frames: string[] = [];
    for (const stream of streams) {
      const agent = await this.context.store.users.findById(stream.agent);
      if (agent === undefined) continue;
      const frame: StreamSnapshotFrame = {
        type: 'stream_snapshot',
        chat_id: chatId,
        stream_id: stream.stream_key,
        agent: agentRef(agent),
        started_at: stream.started,
        text: spoken(agent, this.context.messageCipher.decrypt(stream.text_encrypted)),
      };
      frames.push(encodeFrame(frame));
    }
    return frames;
  }

  private async openStream(agent: UserRow, streamId: string): Promise<AgentStreamRow> {
    const stream = await this.context.store.agents.findStream(agent.id, streamId);
    if (stream === undefined) throw new StreamError('unknown_stream', `no open stream ${streamId.slice(0, 100)}: start it with stream_start`);
    return stream;
  }

  /**
   * Stores what the stream holds as the reply (or nothing, if empty); the one caller that claims
   * it wins. `cutOff`: the reply broke off before its end (its provider failed), stored marked
   * `cut_off`. A stream its agent did not end (`interrupted`: the agent died or went quiet) is cut
   * off too and says so at its end, and its mention counts as answered: it is never sent to the
   * agent again, so no second answer follows.
   */
  private async finish(agent: UserRow, stream: AgentStreamRow, options: { interrupted?: boolean; cutOff?: boolean } = {}): Promise<WireMessage | undefined> {
    if (!(await this.context.store.agents.claimStream(stream.id))) return undefined;
    let text = spoken(agent, this.context.messageCipher.decrypt(stream.text_encrypted));
    if (options.interrupted === true) {
      if (stream.mention !== null) await this.context.store.agents.ackMention(stream.mention, agent.id, this.now());
      if (text.trim() !== '') {
        const notice = `\n\n${interruptedReplyText(agent.username)}`;
        text = text.slice(0, maxMessageLength - notice.length) + notice;
      }
    }
    await this.clearStatus(agent, stream.chat);
    if (text.trim() === '') {
      await this.toChat(stream.chat, { type: 'stream_aborted', chat_id: stream.chat, stream_id: stream.stream_key } satisfies StreamAbortedFrame);
      return undefined;
    }
    const posted = await this.services.messaging.post(agent, {
      chatId: stream.chat,
      content: text,
      clientId: `stream:${stream.stream_key}`.slice(0, 100),
      mentionId: stream.mention ?? undefined,
      replyTo: stream.reply_to ?? undefined,
      streamId: stream.stream_key,
      // Checked when the stream began: a long reply may end after its invocation's 10 minutes.
      grantChecked: true,
      cutOff: options.cutOff === true || options.interrupted === true,
    });
    return (JSON.parse(posted.frame) as NewMessageFrame).message;
  }

  /**
   * Closes streams whose agent went quiet for 60 s with what they hold, marked interrupted and cut
   * off (on whichever instance gets there first): an agent that hangs without disconnecting.
   */
  async sweep(): Promise<void> {
    try {
      const before = formatTimestamp(new Date(this.context.config.now().getTime() - agentLimits.streamIdleMs));
      for (const stream of await this.context.store.agents.idleStreams(before, 50)) {
        const agent = await this.context.store.users.findById(stream.agent);
        if (agent !== undefined) await this.serialised(agent.id, stream.stream_key, () => this.finish(agent, stream, { interrupted: true }));
      }
    } catch (error) {
      this.context.logger.error({ error: String(error) }, 'stream sweep failed');
    }
  }

  private async clearStatus(agent: UserRow, chatId: string): Promise<void> {
    this.noteStatus(agent.id, chatId, false);
    const frame: AgentStatusChangedFrame = { type: 'agent_status', chat_id: chatId, agent: agentRef(agent), text: '' };
    await this.toChat(chatId, frame);
  }

  private noteStatus(agentId: string, chatId: string, shown: boolean): void {
    const chats = this.statusLines.get(agentId);
    if (shown) this.statusLines.set(agentId, (chats ?? new Set()).add(chatId));
    else if (chats?.delete(chatId) === true && chats.size === 0) this.statusLines.delete(agentId);
  }

  private async mayAct(agent: UserRow, chatId: string, mentionId?: string): Promise<void> {
    const messaging = this.services.messaging;
    try {
      await messaging.requireMayPost(agent, chatId);
    } catch (error) {
      if (error instanceof ConfabServerError) throw new StreamError('not_invoked', error.message);
      throw error;
    }
    try {
      if (mentionId !== undefined) await messaging.requireOwnMention(agent, chatId, mentionId);
    } catch (error) {
      const refused = error instanceof ConfabServerError ? error.data['mention_id'] : undefined;
      if (refused !== undefined) throw new StreamError('invalid_message', `mention_id: ${refused.message}`);
      throw error;
    }
  }

  private serialised<Result>(agentId: string, streamId: string, work: () => Promise<Result>): Promise<Result> {
    const key = `${agentId}:${streamId}`;
    const previous = this.streamQueues.get(key) ?? Promise.resolve();
    const run = previous.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.streamQueues.set(key, tail);
    void tail.then(() => {
      if (this.streamQueues.get(key) === tail) this.streamQueues.delete(key);
    });
    return run;
  }

  private async toChat(chatId: string, frame: ServerFrame): Promise<void> {
    const event: ChatFrameEvent = { kind: 'chat_frame', chat_id: chatId, frame: encodeFrame(frame) };
    await this.context.bus.publish(chatChannel(chatId), event);
  }

  async toUser(userId: string, frame: ServerFrame): Promise<void> {
    const event: UserFrameEvent = { kind: 'frame', frame: encodeFrame(frame) };
    await this.context.bus.publish(userChannel(userId), event);
  }

  /** Something to end with the runtime (e.g. @browse's headless browser). */
  onClose(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    for (const closer of this.closers.splice(0)) await closer().catch(() => undefined);
    await this.presence.close();
  }
}
