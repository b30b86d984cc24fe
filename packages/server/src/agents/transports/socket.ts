import type { AgentClientFrame, AgentPresenceFrame, NewMessageFrame } from '@confab/client/protocol';
import { ConfabServerError } from '../../errors';
import { encodeFrame, errorFrame } from '../../realtime/protocol';
import type { Services } from '../../services/index';
import type { UserRow } from '../../store/repositories/users';
import { StreamError, type AgentRuntime } from '../runtime';

/** What the socket transport needs of a connection: who it is and a way to answer. */
export interface AgentConnection {
  agentId: string | undefined;
  /** Chats the socket joined (their messages reach it through the room). */
  joined: ReadonlyMap<string, number> | undefined;
  send(data: string): void;
}

/** Each connection's agent frames, applied one after another in the order they arrived. */
const frameQueues = new WeakMap<AgentConnection, Promise<void>>();

type AgentFrame = Exclude<AgentClientFrame, { type: 'authenticate_with_api_key' }>;

/**
 * The socket transport (ARCHITECTURE "One handler contract, two transports"): a developer
 * agent's frames become calls on the runtime's reply channel, and its refusals error frames that
 * name the frame (`ref`: the stream_id), so the SDK fails the right reply at once.
 */
export class AgentSocketTransport {
  constructor(
    private readonly services: Services,
    private readonly runtime: AgentRuntime,
  ) {}

  /** After authenticate_with_api_key: the agent counts as online, and its developer hears of it. */
  async connected(agent: UserRow): Promise<void> {
    const wasOnline = await this.runtime.presence.isOnline(agent.id);
    await this.runtime.presence.connected(agent.id);
    if (!wasOnline) await this.announce(agent, 'online');
  }

  async sendPending(connection: AgentConnection, agentId: string): Promise<void> {
    for (const frame of await this.runtime.pendingFrames(agentId)) connection.send(frame);
  }

  /**
   * A socket of the agent closed. Once its frames still queued are applied (its last appends
   * included), and if that was the agent's last socket anywhere, its replies in progress are
   * closed as interrupted and its status lines cleared (AgentRuntime.interrupt).
   */
  async disconnected(agentId: string, connection: AgentConnection): Promise<void> {
    await frameQueues.get(connection);
    if (!(await this.runtime.presence.disconnected(agentId))) return;
    if (await this.runtime.presence.isOnline(agentId)) return;
    const agent = await this.services.accounts.findUser(agentId);
    if (agent === undefined) return;
    await this.runtime.interrupt(agent);
    await this.announce(agent, 'offline');
  }

  /** Tells the developer's open apps (My Agents) that the agent came online or went offline. */
  private async announce(agent: UserRow, status: 'online' | 'offline'): Promise<void> {
    if (agent.created_by === null) return;
    const frame: AgentPresenceFrame = { type: 'agent_presence', agent_id: agent.id, status };
    await this.runtime.toUser(agent.created_by, frame);
  }

  /**
   * Frames of one socket are applied in arrival order: a stream_append must never overtake its
   * stream_start, whatever the database's latency. (Called synchronously from the frame handler,
   * so the queue order is the socket's order.)
   */
  handle(connection: AgentConnection, frame: AgentFrame): Promise<void> {
    const previous = frameQueues.get(connection) ?? Promise.resolve();
    const next = previous.then(() => this.apply(connection, frame));
    frameQueues.set(
      connection,
      next.catch(() => undefined),
    );
    return next;
  }

  private async apply(connection: AgentConnection, frame: AgentFrame): Promise<void> {
    const agent = connection.agentId === undefined ? undefined : await this.services.accounts.findUser(connection.agentId);
    if (agent === undefined) {
      return connection.send(errorFrame('not_allowed', `${frame.type} is for agents: authenticate with authenticate_with_api_key`, frame.type));
    }
    const ref = frame.type === 'agent_status' ? frame.chat_id : 'stream_id' in frame ? frame.stream_id : frame.mention_id;
    try {
      switch (frame.type) {
        case 'mention_ack':
          return await this.runtime.acknowledge(agent, frame.mention_id);
        case 'stream_start':
          return await this.runtime.startStream(agent, {
            chatId: frame.chat_id,
            streamId: frame.stream_id,
            ...(frame.mention_id === undefined ? {} : { mentionId: frame.mention_id }),
            ...(frame.reply_to === undefined ? {} : { replyTo: frame.reply_to }),
          });
        case 'stream_append':
          return await this.runtime.appendStream(agent, frame.stream_id, frame.text);
        case 'stream_end': {
          const message = await this.runtime.endStream(agent, frame.stream_id);
          // Like send_message: a socket not joined to the chat still learns its reply was stored.
          if (message !== undefined && connection.joined?.has(message.chat_id) !== true) {
            const stored: NewMessageFrame = { type: 'new_message', message, stream_id: frame.stream_id };
            connection.send(encodeFrame(stored));
          }
          return undefined;
        }
        case 'agent_status':
          return await this.runtime.setStatus(agent, frame.chat_id, frame.text);
      }
    } catch (error) {
      if (error instanceof StreamError) return connection.send(errorFrame(error.frameCode, error.message, ref));
      if (error instanceof ConfabServerError && error.code === 'tooManyRequests') return connection.send(errorFrame('rate_limited', error.message, ref));
      throw error;
    }
  }
}
