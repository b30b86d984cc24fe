import type PocketBase from 'pocketbase';
import { constants } from '../constants';
import { ConfabError, toConfabError } from '../errors';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { ConfabStore } from '../store/createConfabStore';
import type { ChatActivityFrame, ChatReadState, NotifyLevel } from '../protocol';
import type { AgentPermissions, ChatRecord, UserRecord } from '../types';
import { validateChatCreation } from '../validation/content';
import { applyActivity, applyReadState, removeChat, upsertChat } from './chatList';

const chatsCollection = 'chats';
/** Every chat call expands the members, as the chat list and Chat Options show them. */
const expand = 'participants,admins';

export interface ChatsServiceDependencies {
  pb: PocketBase;
  store: ConfabStore;
  realtime: RealtimeConnection;
  currentUser: () => UserRecord;
  /** Called when a chat leaves the list (deleted, or the user removed) so the open chat closes. */
  onChatGone: (chatId: string) => void;
}

export interface CreateChatInput {
  name: string;
  description?: string | undefined;
}

export interface ChatPatch {
  name?: string | undefined;
  description?: string | undefined;
}

/**
 * Chats through the record API (docs/PRODUCT.md §7 chats), kept in step with `store.chats` both by
 * its own answers and by the gateway's chat-list events. Every failure rejects with a ConfabError.
 */
export class ChatsService {
  constructor(private readonly dependencies: ChatsServiceDependencies) {
    const { realtime } = dependencies;
    realtime.on('chat_added', ({ chat }) => this.remember(chat));
    realtime.on('chat_updated', ({ chat }) => this.remember(chat));
    realtime.on('chat_removed', ({ chat_id }) => this.forget(chat_id));
    realtime.on('chat_deleted', ({ chat_id }) => this.forget(chat_id));
    realtime.on('read_state', (state) => this.rememberReadState(state));
    realtime.on('chat_activity', (activity) => this.noteActivity(activity));
    // Activity and read states sent while no socket listened are lost: every reconnect after the
    // first connect loads the list (with its counts) again.
    let connectedBefore = false;
    realtime.on('state', ({ state }) => {
      if (state !== 'connected') return;
      if (connectedBefore && dependencies.store.getState().user !== null) void this.list().catch(() => {});
      connectedBefore = true;
    });
  }

  /** The user's chats, newest activity first; fills store.chats, chatsLoading and chatsError. */
  async list(): Promise<ChatRecord[]> {
    const { pb, store } = this.dependencies;
    store.setState({ chatsLoading: true, chatsError: null });
    try {
      const chats = await pb.collection(chatsCollection).getFullList<ChatRecord>({
        expand,
        sort: '-updated',
        batch: constants.list.fullListBatchSize,
      });
      store.setState({ chats, chatsLoading: false });
      return chats;
    } catch (error) {
      const failure = toConfabError(error);
      // An aborted load is superseded by another one; it is not an error to show.
      store.setState(failure.isAbort ? { chatsLoading: false } : { chatsLoading: false, chatsError: failure.message });
      throw failure;
    }
  }

  async get(id: string): Promise<ChatRecord> {
    const chat = await this.call(() => this.dependencies.pb.collection(chatsCollection).getOne<ChatRecord>(id, { expand }));
    this.refresh(chat);
    return chat;
  }

  /** The caller becomes creator, participant and admin (docs/PRODUCT.md §3). */
  async create(input: CreateChatInput): Promise<ChatRecord> {
    const user = this.dependencies.currentUser();
    const problem = validateChatCreation({ name: input.name, userId: user.id });
    if (problem !== null) throw new ConfabError(problem, 400);
    const body = {
      name: input.name.trim(),
      description: (input.description ?? '').trim(),
      creator: user.id,
      participants: [user.id],
      admins: [user.id],
    };
    const chat = await this.call(() => this.dependencies.pb.collection(chatsCollection).create<ChatRecord>(body, { expand }));
    this.remember(chat);
    return chat;
  }

  update(id: string, patch: ChatPatch): Promise<ChatRecord> {
    const body: Record<string, string> = {};
    if (patch.name !== undefined) body['name'] = patch.name.trim();
    if (patch.description !== undefined) body['description'] = patch.description.trim();
    return this.patch(id, body);
  }

  promote(id: string, userId: string): Promise<ChatRecord> {
    return this.patch(id, { 'admins+': userId });
  }

  demote(id: string, userId: string): Promise<ChatRecord> {
    return this.patch(id, { 'admins-': userId });
  }

  addParticipant(id: string, userId: string): Promise<ChatRecord> {
    return this.patch(id, { 'participants+': userId });
  }

  /** The server also drops the user from the admins; an admin cannot remove themself. */
  removeParticipant(id: string, userId: string): Promise<ChatRecord> {
    return this.patch(id, { 'participants-': userId });
  }

  setAgentPermissions(id: string, permissions: AgentPermissions): Promise<ChatRecord> {
    return this.patch(id, { agent_permissions: permissions });
  }

  setAutoRouteEnabled(id: string, enabled: boolean): Promise<ChatRecord> {
    return this.patch(id, { auto_route_enabled: enabled });
  }

  setAutoRouteAgent(id: string, username: string): Promise<ChatRecord> {
    return this.patch(id, { auto_route_agent: username });
  }

  /**
   * Marks the chat read up to `seq` (never back): at once in the store, then on the server over
   * the socket (`mark_read`) or, without one, POST /api/chats/{id}/read. The server tells the
   * person's other sessions. Resolves when sent; a seq at or below the known position sends nothing.
   */
  async markRead(id: string, seq: number): Promise<void> {
    const chat = this.dependencies.store.getState().chats.find((listed) => listed.id === id);
    if (!Number.isInteger(seq) || seq <= 0 || (chat?.last_read_seq ?? 0) >= seq) return;
    const lastSeq = Math.max(chat?.last_seq ?? seq, seq);
    this.rememberReadState({
      chat_id: id,
      last_read_seq: seq,
      // Mentions after seq stay counted until the server's answer says how many are left.
      unread_count: Math.max(0, lastSeq - seq),
      mention_count: seq >= lastSeq ? 0 : (chat?.mention_count ?? 0),
      muted: chat?.muted ?? false,
    });
    if (this.dependencies.realtime.send({ type: 'mark_read', chat_id: id, seq })) return;
    const state = await this.call(() =>
      this.dependencies.pb.send<ChatReadState>(`/api/chats/${encodeURIComponent(id)}/read`, { method: 'POST', body: { seq } }),
    );
    this.rememberReadState(state);
  }

  /** Mutes or unmutes the chat for the signed-in person (POST /api/chats/{id}/mute). */
  async setMuted(id: string, muted: boolean): Promise<ChatReadState> {
    const state = await this.call(() =>
      this.dependencies.pb.send<ChatReadState>(`/api/chats/${encodeURIComponent(id)}/mute`, { method: 'POST', body: { muted } }),
    );
    this.rememberReadState(state);
    return state;
  }

  /**
   * What of the chat notifies the signed-in person: 'all' messages or 'mentions' and replies
   * (POST /api/chats/{id}/notifications; docs/CONTRACTS.md, Notifications).
   *
   * @example
   * await client.chats.setNotifyLevel(chatId, 'all');
   */
  async setNotifyLevel(id: string, level: NotifyLevel): Promise<ChatReadState> {
    const state = await this.call(() =>
      this.dependencies.pb.send<ChatReadState>(`/api/chats/${encodeURIComponent(id)}/notifications`, { method: 'POST', body: { level } }),
    );
    this.rememberReadState(state);
    return state;
  }

  /** Fetches a chat the user has just joined (e.g. an accepted invitation) into the chat list. */
  async include(id: string): Promise<ChatRecord> {
    const chat = await this.call(() => this.dependencies.pb.collection(chatsCollection).getOne<ChatRecord>(id, { expand }));
    this.remember(chat);
    return chat;
  }

  /**
   * The user leaves the chat (POST /api/chats/{id}/leave); it leaves the list and, if open, closes.
   * The last admin of a chat with other people is refused (400) until someone else is an admin;
   * the only person in a chat is refused too and deletes the chat instead.
   */
  async leave(id: string): Promise<void> {
    await this.call(() => this.dependencies.pb.send(`/api/chats/${encodeURIComponent(id)}/leave`, { method: 'POST' }));
    this.forget(id);
  }

  /** Deletes the chat with its messages and files (admins only). */
  async remove(id: string): Promise<void> {
    await this.call(() => this.dependencies.pb.collection(chatsCollection).delete(id));
    this.forget(id);
  }

  private async patch(id: string, body: Record<string, unknown>): Promise<ChatRecord> {
    const chat = await this.call(() => this.dependencies.pb.collection(chatsCollection).update<ChatRecord>(id, body, { expand }));
    this.remember(chat);
    return chat;
  }

  private async call<Result>(operation: () => Promise<Result>): Promise<Result> {
    try {
      return await operation();
    } catch (error) {
      throw toConfabError(error);
    }
  }

  /** Adds or replaces the chat in the list, and in currentChat when it is the open one. */
  private remember(chat: ChatRecord): void {
    this.dependencies.store.setState((state) => ({
      chats: upsertChat(state.chats, chat),
      ...(state.currentChat?.id === chat.id ? { currentChat: chat } : {}),
    }));
  }

  /** Like remember, but only for chats already listed: get() of a chat does not add it. */
  private refresh(chat: ChatRecord): void {
    const { chats, currentChat } = this.dependencies.store.getState();
    if (chats.some((listed) => listed.id === chat.id) || currentChat?.id === chat.id) this.remember(chat);
  }

  private rememberReadState(state: ChatReadState): void {
    this.dependencies.store.setState((current) => {
      const chats = applyReadState(current.chats, state);
      return chats === current.chats ? {} : { chats };
    });
  }

  private noteActivity(activity: ChatActivityFrame): void {
    const me = this.dependencies.store.getState().user?.id;
    this.dependencies.store.setState((current) => {
      const chats = applyActivity(current.chats, activity, me);
      return chats === current.chats ? {} : { chats };
    });
  }

  private forget(chatId: string): void {
    this.dependencies.store.setState((state) => ({ chats: removeChat(state.chats, chatId) }));
    this.dependencies.onChatGone(chatId);
  }
}
