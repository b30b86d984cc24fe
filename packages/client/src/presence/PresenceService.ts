import { typingLimits, type ChatPresenceAnswer, type Typist, type TypingNoticeFrame } from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ConfabStore } from '../store/createConfabStore';
import { TypingTimers } from './typingTimers';

export interface PresenceOptions {
  /** At most one typing frame per chat in this time. Default 3 000 (typingLimits.sendIntervalMs). */
  typingIntervalMs?: number | undefined;
  /** A typist is cleared after this long without a new frame. Default 6 000 (typingLimits.expiryMs). */
  typingExpiryMs?: number | undefined;
}

export interface PresenceServiceDependencies {
  store: ConfabStore;
  realtime: RealtimeConnection;
  /** A product endpoint call with the session's token (ConfabClient.request). */
  request: <Result>(path: string) => Promise<Result>;
  /** The signed-in user's id, or null: one's own typing is never shown. */
  currentUserId: () => string | null;
}

/**
 * Typing and presence (docs/CONTRACTS.md, Typing and presence): `typing(chatId)` tells the others
 * the user is typing (at most once per interval, only in a joined chat), `store.typists` lists who
 * else types in each joined chat (cleared after the expiry without a new frame, or at once when
 * their message arrives), and `store.onlineUserIds` who is online, loaded per chat with
 * `loadChat(chatId)` and followed through presence frames.
 *
 * @example
 * await client.presence.loadChat(chatId);
 * input.addEventListener('input', () => { if (input.value.trim() !== '') client.presence.typing(chatId); });
 */
export class PresenceService {
  private readonly intervalMs: number;
  private readonly joined = new Set<string>();
  private readonly lastSentMs = new Map<string, number>();
  /** Chats whose presence was loaded: loaded again after a reconnect, since frames were missed. */
  private readonly loadedChats = new Set<string>();
  private readonly timers: TypingTimers;
  private connectedBefore = false;

  constructor(private readonly dependencies: PresenceServiceDependencies, options: PresenceOptions = {}) {
    this.intervalMs = options.typingIntervalMs ?? typingLimits.sendIntervalMs;
    this.timers = new TypingTimers(options.typingExpiryMs ?? typingLimits.expiryMs, (chatId, userId) => this.removeTypist(chatId, userId));
    const { realtime } = dependencies;
    realtime.on('joined', ({ chat_id }) => this.joined.add(chat_id));
    realtime.on('left', ({ chat_id }) => this.forgetChat(chat_id));
    realtime.on('chat_removed', ({ chat_id }) => this.forgetChat(chat_id));
    realtime.on('chat_deleted', ({ chat_id }) => this.forgetChat(chat_id));
    realtime.on('typing', (frame) => this.typist(frame));
    realtime.on('new_message', ({ message }) => {
      if (message.author_id === dependencies.currentUserId()) this.lastSentMs.delete(message.chat_id);
      else this.removeTypist(message.chat_id, message.author_id);
    });
    realtime.on('presence', ({ user_id, online }) => this.setOnline([user_id], online));
    realtime.on('state', ({ state }) => {
      if (state === 'connected') {
        if (this.connectedBefore) for (const chatId of this.loadedChats) void this.loadChat(chatId).catch(() => {});
        this.connectedBefore = true;
        return;
      }
      // A lost socket hears no more typing: nobody is shown typing until frames come again.
      for (const chatId of [...this.joined]) this.forgetChat(chatId);
    });
  }

  /**
   * Says the user is typing in chatId: sends a typing frame unless one went out within the
   * interval, the chat is not joined, or the socket is down. True when a frame was sent.
   */
  typing(chatId: string): boolean {
    if (!this.joined.has(chatId)) return false;
    const nowMs = Date.now();
    const last = this.lastSentMs.get(chatId);
    if (last !== undefined && nowMs - last < this.intervalMs) return false;
    if (!this.dependencies.realtime.send({ type: 'typing', chat_id: chatId })) return false;
    this.lastSentMs.set(chatId, nowMs);
    return true;
  }

  /** Who of chatId is online now (GET /api/chats/{id}/presence), into store.onlineUserIds. */
  async loadChat(chatId: string): Promise<string[]> {
    this.loadedChats.add(chatId);
    const answer = await this.dependencies.request<ChatPresenceAnswer>(`/api/chats/${encodeURIComponent(chatId)}/presence`);
    const { chats, currentChat } = this.dependencies.store.getState();
    const chat = chats.find((candidate) => candidate.id === chatId) ?? (currentChat?.id === chatId ? currentChat : undefined);
    const online = new Set(answer.online);
    this.setOnline(chat?.participants.filter((id) => !online.has(id)) ?? [], false);
    this.setOnline(answer.online, true);
    return answer.online;
  }

  /** Forgets everything (logout). */
  clear(): void {
    for (const chatId of [...this.joined]) this.forgetChat(chatId);
    this.loadedChats.clear();
    this.connectedBefore = false;
    if (this.dependencies.store.getState().onlineUserIds.length > 0) this.dependencies.store.setState({ onlineUserIds: [] });
  }

  private typist(frame: TypingNoticeFrame): void {
    if (!this.joined.has(frame.chat_id) || frame.user_id === this.dependencies.currentUserId()) return;
    this.timers.restart(frame.chat_id, frame.user_id);
    const typist: Typist = { user_id: frame.user_id, username: frame.username, name: frame.name };
    this.dependencies.store.setState((state) => {
      const current = state.typists[frame.chat_id] ?? [];
      if (current.some((known) => known.user_id === typist.user_id)) return {};
      return { typists: { ...state.typists, [frame.chat_id]: [...current, typist] } };
    });
  }

  private removeTypist(chatId: string, userId: string): void {
    this.timers.stop(chatId, userId);
    this.dependencies.store.setState((state) => {
      const current = state.typists[chatId];
      if (current === undefined || !current.some((typist) => typist.user_id === userId)) return {};
      const rest = current.filter((typist) => typist.user_id !== userId);
      const typists = { ...state.typists };
      if (rest.length === 0) delete typists[chatId];
      else typists[chatId] = rest;
      return { typists };
    });
  }

  private forgetChat(chatId: string): void {
    this.joined.delete(chatId);
    this.lastSentMs.delete(chatId);
    this.timers.stopChat(chatId);
    this.dependencies.store.setState((state) => {
      if (state.typists[chatId] === undefined) return {};
      const typists = { ...state.typists };
      delete typists[chatId];
      return { typists };
    });
  }

  private setOnline(userIds: readonly string[], online: boolean): void {
    if (userIds.length === 0) return;
    this.dependencies.store.setState((state) => {
      const current = new Set(state.onlineUserIds);
      const changed = userIds.filter((id) => current.has(id) !== online);
      if (changed.length === 0) return {};
      for (const id of changed) {
        if (online) current.add(id);
        else current.delete(id);
      }
      return { onlineUserIds: [...current] };
    });
  }
}
