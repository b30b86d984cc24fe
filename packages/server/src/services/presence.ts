import type { ChatPresenceAnswer, PresenceFrame } from '@confab/client/protocol';
import { ConfabServerError } from '../errors';
import { MemoryPresence, RedisPresence, type AgentPresence } from '../agents/presence';
import { clusterNamespace, type ServerConfig } from '../config';
import { userChannel, type UserFrameEvent } from '../realtime/channels';
import type { UserRow } from '../store/repositories/users';
import { agentTypes } from './collections/agentTypes';
import type { ServiceContext } from './context';

const isPerson = (type: string) => !(agentTypes as readonly string[]).includes(type);

/** People's socket counts: in memory for one instance, in Redis (its own keys, apart from agents') when instances share REDIS_URL. */
export function createPeoplePresence(config: ServerConfig, onError: (error: unknown) => void): AgentPresence {
  return config.redisUrl === undefined ? new MemoryPresence() : new RedisPresence(config.redisUrl, `${clusterNamespace(config.secret)}:people`, onError, config.presenceTtlMs);
}

/**
 * Which people are online (docs/CONTRACTS.md, Typing and presence): a person is online while they
 * have at least one authenticated socket on any instance. The counts live in `sockets` (memory for
 * one instance, Redis across instances, the same store agents' presence uses); here are who is told
 * of a change and who may ask.
 */
export class PresenceService {
  constructor(
    private readonly context: ServiceContext,
    private readonly sockets: AgentPresence,
  ) {
    // A person whose sockets died with their instance (kill -9, a crash) closed nothing, so no
    // instance told anyone: the presence store finds them once their entries expire.
    sockets.onExpired((userId) => void this.announce(userId, false));
  }

  /**
   * True while the person has an open socket on any instance: "no open session" is `false`.
   *
   * @example
   * if (!(await services.presence.isOnline(userId))) await mailTheMention(userId);
   */
  isOnline(userId: string): Promise<boolean> {
    return this.sockets.isOnline(userId);
  }

  /** A person's socket authenticated; the people who share a chat with them hear if they just came online. */
  async connected(userId: string): Promise<void> {
    const wasOnline = await this.sockets.isOnline(userId);
    await this.sockets.connected(userId);
    if (!wasOnline) await this.announce(userId, true);
  }

  /** A person's socket closed; when it was their last on every instance, they went offline. */
  async disconnected(userId: string): Promise<void> {
    if (!(await this.sockets.disconnected(userId))) return;
    if (await this.sockets.isOnline(userId)) return;
    await this.announce(userId, false);
  }

  /** GET /api/chats/{id}/presence: the chat's participants online now; 404 for anyone outside it. */
  async onlineIn(user: Pick<UserRow, 'id'>, chatId: string): Promise<ChatPresenceAnswer> {
    if (!(await this.context.store.chats.isParticipant(chatId, user.id))) throw new ConfabServerError('notFound', 'Chat not found');
    const participants = await this.context.store.chats.participantsWithNames(chatId);
    const people = participants.filter((person) => isPerson(person.type));
    const online = await Promise.all(people.map(async (person) => ((await this.sockets.isOnline(person.user_id)) ? person.user_id : null)));
    return { chat_id: chatId, online: online.filter((id): id is string => id !== null) };
  }

  async close(): Promise<void> {
    await this.sockets.close();
  }

  /** Sent on `user:<id>` channels of the others, so every instance's sockets of those people get it. */
  private async announce(userId: string, online: boolean): Promise<void> {
    const frame: PresenceFrame = { type: 'presence', user_id: userId, online };
    const event: UserFrameEvent = { kind: 'frame', frame: JSON.stringify(frame) };
    try {
      const people = await this.context.store.chats.peopleSharingChatsWith(userId);
      const sends = people.filter((person) => person.user_id !== userId && isPerson(person.type)).map((person) => this.context.bus.publish(userChannel(person.user_id), event));
      const failures = (await Promise.allSettled(sends)).filter((result) => result.status === 'rejected');
      if (failures.length > 0) this.context.logger.error({ userId, failures: failures.length }, 'presence publish failed');
    } catch (error) {
      this.context.logger.error({ error: String(error), userId }, 'presence announce failed');
    }
  }
}
