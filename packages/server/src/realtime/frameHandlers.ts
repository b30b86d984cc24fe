import { WebSocket } from 'ws';
import { ConfabServerError, isOutOfSpace, outOfStorage, type FieldErrors } from '../errors';
import type { AgentRuntime } from '../agents/runtime';
import { AgentSocketTransport } from '../agents/transports/socket';
import type { AuthSuccessFrame, LeftFrame, PongFrame } from '@confab/client/protocol';
import type { Services } from '../services/index';
import { clientIdMaximum, messageContentMaximum, validateContent } from '../services/messaging';
import { replaying, type Connection } from './connection';
import { closeCodes, encodeFrame, errorFrame, replayLimit, type ClientFrame } from './protocol';
import type { RoomRegistry } from './rooms';
import { PresenceTracker } from './presenceTracker';
import { TypingRelay } from './typing';
import type { UserSessions } from './userSessions';

type FrameOf<Type extends ClientFrame['type']> = Extract<ClientFrame, { type: Type }>;

/** The longest value of each send_message field, for the error text. */
const fieldMaximums: Record<string, number> = { content: messageContentMaximum, client_id: clientIdMaximum };

/** The first field error of a send_message, naming the field that is wrong (`client_id is longer than 100 characters`). */
function invalidMessageText(errors: FieldErrors): string {
  const [field, error] = Object.entries(errors)[0] ?? [];
  if (field === undefined || error === undefined) return 'invalid message';
  const subject = field === 'content' ? 'message content' : field;
  if (error.code === 'validation_required') return field === 'content' ? 'message content is empty after trimming' : `${field} is required`;
  const maximum = fieldMaximums[field];
  if (error.code === 'validation_max_text_constraint' && maximum !== undefined) return `${subject} is longer than ${maximum} characters`;
  return `${subject}: ${error.message}`;
}

/** What each well-formed client frame does. Every refusal is an error frame, never silence. */
export class FrameHandlers {
  readonly agentTransport: AgentSocketTransport;
  /** People's sockets in the presence store (docs/CONTRACTS.md, Typing and presence). */
  readonly presence: PresenceTracker;
  private readonly typing: TypingRelay;

  constructor(
    private readonly services: Services,
    private readonly agents: AgentRuntime,
    private readonly rooms: RoomRegistry,
    private readonly sessions: UserSessions,
    private readonly onError: (error: unknown) => void,
  ) {
    this.agentTransport = new AgentSocketTransport(services, agents);
    this.presence = new PresenceTracker(services.presence, onError);
    this.typing = new TypingRelay(services);
  }

  async handle(connection: Connection, frame: ClientFrame): Promise<void> {
    try {
      if (connection.authenticating !== undefined) await connection.authenticating;
      if (frame.type === 'authenticate_with_token') return await this.authenticate(connection, frame.token);
      if (frame.type === 'authenticate_with_api_key') return await this.authenticateAgent(connection, frame.api_key);
      if (connection.userId === undefined) {
        return connection.send(errorFrame('not_authenticated', 'send authenticate_with_token (or authenticate_with_api_key) first', frame.type));
      }
      switch (frame.type) {
        case 'ping':
          return connection.send(encodeFrame({ type: 'pong', timestamp: frame.timestamp }));
        case 'join_chat':
          return await this.join(connection, connection.userId, frame);
        case 'leave_chat':
          if (connection.leave(frame.chat_id)) this.rooms.leave(frame.chat_id, connection);
          return connection.send(encodeFrame({ type: 'left', chat_id: frame.chat_id }));
        case 'send_message':
          return await this.sendMessage(connection, connection.userId, frame);
        case 'mark_read':
          return await this.markRead(connection, connection.userId, frame);
        case 'typing':
          return await this.typing.handle(connection, connection.userId, frame);
        case 'edit_message':
        case 'delete_message':
          return await this.changeMessage(connection, connection.userId, frame);
        case 'add_reaction':
        case 'remove_reaction':
          return await this.react(connection, connection.userId, frame);
        case 'mention_ack':
        case 'stream_start':
        case 'stream_append':
        case 'stream_end':
        case 'agent_status':
          return await this.agentTransport.handle(connection, frame);
      }
    } catch (error) {
      this.onError(error);
      connection.send(errorFrame('server_error', 'the server could not process this frame; try again', frame.type));
    }
  }

  private async authenticate(connection: Connection, token: string): Promise<void> {
    const attempt = (async () => {
      const user = await this.services.accounts.authenticate(token);
      if (user === undefined || (connection.userId !== undefined && connection.userId !== user.id)) {
        connection.send(encodeFrame({ type: 'authError', message: 'Invalid or expired token' }));
        connection.socket.close(closeCodes.authenticationFailed, 'Authentication failed');
        return;
      }
      if (connection.userId === undefined) {
        if (connection.socket.readyState !== WebSocket.OPEN) return;
        connection.userId = user.id;
        clearTimeout(connection.authTimer);
        connection.authTimer = undefined;
        await this.sessions.add(user.id, connection);
        this.presence.opened(connection, user.id);
      }
      connection.send(encodeFrame({ type: 'authSuccess', user_id: user.id }));
    })();
    connection.authenticating = attempt;
    try {
      await attempt;
    } finally {
      if (connection.authenticating === attempt) connection.authenticating = undefined;
    }
  }

  /**
   * An agent signs in with its API key (the frame, or the upgrade's Authorization header): a wrong,
   * rotated or deleted key gets authError and close 4001, like a bad token.
   */
  async authenticateAgent(connection: Connection, apiKey: string): Promise<void> {
    const attempt = (async () => {
      const agent = await this.services.agents.authenticateKey(apiKey);
      if (agent === undefined || (connection.userId !== undefined && connection.userId !== agent.id)) {
        connection.send(encodeFrame({ type: 'authError', message: 'Invalid API key: create or rotate a key on My Agents (or with confab agents rotate-key)' }));
        connection.socket.close(closeCodes.authenticationFailed, 'Authentication failed');
        return;
      }
      if (connection.userId !== undefined) return connection.send(encodeFrame({ type: 'authSuccess', user_id: agent.id }));
      if (connection.socket.readyState !== WebSocket.OPEN) return undefined;
      connection.userId = agent.id;
      connection.agentId = agent.id;
      clearTimeout(connection.authTimer);
      connection.authTimer = undefined;
      // The dev room first: its chat_added goes out before this socket listens, so authSuccess
      // (which names the room) is the agent's first frame.
      const devRoomId = await this.services.agents.ensureDevRoom(agent);
      await this.sessions.add(agent.id, connection);
      await this.agentTransport.connected(agent);
      const answer: AuthSuccessFrame = { type: 'authSuccess', user_id: agent.id, agent: { id: agent.id, username: agent.username, name: agent.name, dev_room_id: devRoomId ?? '' } };
      connection.send(encodeFrame(answer));
      await this.agentTransport.sendPending(connection, agent.id);
      return undefined;
    })();
    connection.authenticating = attempt;
    try {
      await attempt;
    } finally {
      if (connection.authenticating === attempt) connection.authenticating = undefined;
    }
  }

  private async join(connection: Connection, userId: string, frame: FrameOf<'join_chat'>): Promise<void> {
    const chatId = frame.chat_id;
    const messaging = this.services.messaging;
    if (!(await messaging.mayRead(chatId, userId))) {
      return connection.send(errorFrame('not_a_participant', 'you are not a participant of this chat', chatId));
    }
    // Subscribed first: live messages buffer while the replay reads the log, then de-duplicate by seq.
    connection.startReplay(chatId);
    await this.rooms.join(chatId, connection);
    // A removal that committed while this join ran might have missed this socket; check again.
    if (!(await messaging.mayRead(chatId, userId))) {
      if (connection.leave(chatId)) this.rooms.leave(chatId, connection);
      return connection.send(errorFrame('not_a_participant', 'you are not a participant of this chat', chatId));
    }
    let delivered: number;
    let hasMore = false;
    if (frame.after_seq === undefined) {
      delivered = await messaging.lastSeq(chatId);
    } else {
      const frames = await messaging.framesAfter(chatId, frame.after_seq, replayLimit + 1);
      hasMore = frames.length > replayLimit;
      const replay = frames.slice(0, replayLimit);
      if (connection.joined?.get(chatId) !== replaying) return;
      for (const stored of replay) connection.send(stored.frame);
      delivered = replay.at(-1)?.seq ?? frame.after_seq;
    }
    if (connection.joined?.get(chatId) !== replaying) {
      this.rooms.leave(chatId, connection);
      return;
    }
    connection.send(encodeFrame({ type: 'joined', chat_id: chatId, last_seq: delivered, has_more: hasMore }));
    connection.finishReplay(chatId, delivered);
    // Replies still growing: the text so far, so a client that (re)joins mid-stream catches up.
    for (const snapshot of await this.agents.snapshots(chatId)) connection.send(snapshot);
  }

  /** Moves the read position; the answer is the read_state every session of the person gets (this one too). */
  private async markRead(connection: Connection, userId: string, frame: FrameOf<'mark_read'>): Promise<void> {
    if (connection.agentId !== undefined) return connection.send(errorFrame('not_allowed', 'agents have no read state', frame.chat_id));
    try {
      await this.services.reads.markRead({ id: userId }, frame.chat_id, frame.seq);
    } catch (error) {
      if (error instanceof ConfabServerError && error.status === 404) {
        return connection.send(errorFrame('not_a_participant', 'you are not a participant of this chat', frame.chat_id));
      }
      throw error;
    }
  }

  /**
   * Edits or deletes a message; the chat's joined sockets (this one too, when joined) get
   * message_updated or message_deleted. Refusals name the message: `invalid_message` for content,
   * `not_allowed` for a message that is not the caller's to change (or does not exist).
   */
  private async changeMessage(connection: Connection, userId: string, frame: FrameOf<'edit_message'> | FrameOf<'delete_message'>): Promise<void> {
    const user = await this.services.accounts.findUser(userId);
    if (user === undefined) return connection.socket.close(closeCodes.authenticationFailed, 'Account removed');
    let changed: { row: { chat: string }; frame: string };
    try {
      changed = frame.type === 'edit_message' ? await this.services.messaging.edit(user, frame.message_id, frame.content) : await this.services.messaging.remove(user, frame.message_id);
    } catch (error) {
      if (!(error instanceof ConfabServerError)) throw error;
      if (error.status === 404) {
        const verb = frame.type === 'edit_message' ? 'edit' : 'delete';
        return connection.send(errorFrame('not_allowed', `no message you may ${verb} has this id`, frame.message_id));
      }
      if (error.status === 400) return connection.send(errorFrame('invalid_message', invalidMessageText(error.data), frame.message_id));
      throw error;
    }
    // A sender not joined to the chat (an agent answering a mention) is answered here.
    if (connection.joined?.has(changed.row.chat) !== true) connection.send(changed.frame);
  }

  /**
   * Adds or removes the caller's reaction; the chat's joined sockets get reactions_changed. A
   * caller not joined (an agent answering a mention), or a change that changed nothing, is
   * answered with the summary here. Refusals name the message: `invalid_reaction` for the emoji,
   * `not_allowed` for a message one cannot react to, `not_invoked` for an agent not invited there.
   */
  private async react(connection: Connection, userId: string, frame: FrameOf<'add_reaction'> | FrameOf<'remove_reaction'>): Promise<void> {
    const user = await this.services.accounts.findUser(userId);
    if (user === undefined) return connection.socket.close(closeCodes.authenticationFailed, 'Account removed');
    let result;
    try {
      result = await this.services.reactions.change(user, frame.message_id, frame.emoji, frame.type === 'add_reaction');
    } catch (error) {
      if (!(error instanceof ConfabServerError)) throw error;
      if (error.status === 404) return connection.send(errorFrame('not_allowed', 'no message you may react to has this id', frame.message_id));
      if (error.status === 400) return connection.send(errorFrame('invalid_reaction', error.message, frame.message_id));
      if (error.code === 'forbidden') return connection.send(errorFrame('not_invoked', error.message, frame.message_id));
      if (error.code === 'tooManyRequests') return connection.send(errorFrame('rate_limited', error.message, frame.message_id));
      throw error;
    }
    if (!result.changed || connection.joined?.has(result.answer.chat_id) !== true) connection.send(result.frame);
  }

  private async sendMessage(connection: Connection, userId: string, frame: FrameOf<'send_message'>): Promise<void> {
    const ref = frame.client_id ?? frame.type;
    const errors: FieldErrors = {};
    validateContent(errors, 'content', frame.content);
    if (Object.keys(errors).length > 0) return connection.send(errorFrame('invalid_message', invalidMessageText(errors), ref));
    const author = await this.services.accounts.findUser(userId);
    if (author === undefined) return connection.socket.close(closeCodes.authenticationFailed, 'Account removed');
    let posted;
    try {
      posted = await this.services.messaging.post(author, {
        chatId: frame.chat_id,
        content: frame.content,
        clientId: frame.client_id,
        mentionId: frame.mention_id,
        replyTo: frame.reply_to,
      });
    } catch (error) {
      if (error instanceof ConfabServerError && error.code === 'tooManyRequests') return connection.send(errorFrame('rate_limited', error.message, ref));
      if (error instanceof ConfabServerError && error.code === 'forbidden') return connection.send(errorFrame('not_invoked', error.message, ref));
      if (isOutOfSpace(error)) {
        // Nothing was stored; the client fails this very message and may send it again later.
        this.onError(error);
        return connection.send(errorFrame('server_error', outOfStorage().message, ref));
      }
      if (!(error instanceof ConfabServerError) || error.status !== 400) throw error;
      if (Object.keys(error.data).length > 0) return connection.send(errorFrame('invalid_message', invalidMessageText(error.data), ref));
      return connection.send(errorFrame('not_a_participant', 'you are not a participant of this chat', ref));
    }
    // Others clear the author's typing line when the message arrives; the next keystroke may say so again.
    this.typing.sent(userId, frame.chat_id);
    // Joined sockets get it from the room, a retry too (it is published again), in seq order with
    // no gap. A sender that has not joined gets it here, and so does a retry of a seq this socket
    // is already past (it joined live-only after the message), which the room will not send again.
    const delivered = connection.joined?.get(frame.chat_id);
    if (delivered === undefined || (!posted.created && delivered >= Number(posted.row.seq))) connection.send(posted.frame);
  }
}
