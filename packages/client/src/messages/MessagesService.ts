import type PocketBase from 'pocketbase';
import { AgentActivity, settleReply } from '../agents/AgentActivity';
import { constants } from '../constants';
import { ConfabError, toConfabError } from '../errors';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import { displayNameOf } from '../records';
import type { ConfabStore } from '../store/createConfabStore';
import type { ChatRecord, ClientMessage, MessageRecord, UserRecord } from '../types';
import { validateMessage } from '../validation/content';
import { changedAt, changeMessages, changeThread, contiguousSeq, mergeMessages, oldestSeq, updateUnconfirmed, type QuoteOf } from './mergeMessages';
import { messageFromRecord, messageFromWire } from './normalize';
import { Outbox } from './outbox';
import { applyReactionSummary, toggledSummary } from './reactions';
import type { ReactionsAnswer } from '../protocol';
import type { Threads } from './threads';
import { LatestOnly } from '../store/latestOnly';

const messagesCollection = 'messages';
/**
 * How long a prefetched chat stays usable by open(). Its page is a starting point only (joining
 * from its last seq replays anything newer), but a prefetch nobody opened for this long is left
 * for a fresh request rather than shown.
 */
const prefetchFreshMs = 10_000;

interface Page {
  messages: ClientMessage[];
  hasMore: boolean;
}

/** A chat's record and latest page, asked for before the chat page is on screen. */
interface Prefetch {
  chatId: string;
  startedAt: number;
  chat: Promise<ChatRecord>;
  page: Promise<Page>;
}

/** How client.messages.send posts a message. */
export interface MessageSendOptions {
  /** Makes it a reply to this message (docs/CONTRACTS.md, Replies). */
  replyTo?: string | undefined;
}

export interface MessagesOptions {
  /** A sent message not confirmed by its new_message within this time is marked failed. Default 10 000. */
  sendTimeoutMs?: number | undefined;
  /** Messages per history page. Default 50. */
  pageSize?: number | undefined;
}

export interface MessagesServiceDependencies {
  pb: PocketBase;
  store: ConfabStore;
  realtime: RealtimeConnection;
  currentUser: () => UserRecord;
  /** Resolves a chat that is not in store.chats yet (a link opened before the list loaded). */
  getChat: (chatId: string) => Promise<ChatRecord>;
}


/** Error codes that refuse one send_message: the frame's ref is the message's client_id. */
const refusedSendCodes: ReadonlySet<string> = new Set(['invalid_message', 'rate_limited', 'not_a_participant']);
/**
 * The open chat's messages (docs/PRODUCT.md §7 messages and realtime): history by keyset pages over
 * the record API, live and missed messages from the gateway merged by seq, and optimistic sending.
 */
export class MessagesService {
  private readonly sendTimeoutMs: number;
  private readonly pageSize: number;
  private readonly outbox: Outbox;
  /** Sends written while the socket was (re)connecting, sent once it is connected. */
  private readonly held = new Set<string>();
  private openChatId: string | null = null;
  /** Renewed by every open and close, so answers for a chat no longer open are dropped. */
  private readonly loads = new LatestOnly();
  private olderRequest: Promise<{ hasMore: boolean }> | null = null;
  /**
   * The latest change (creation, edit or deletion time, the server's clock) of the open chat seen
   * live or in its latest page: after a reconnect, whatever changed later is asked for.
   */
  private seenChangesUntil = '';
  private connectedBefore = false;
  private prefetched: Prefetch | null = null;
  /** Agents at work in the open chat: streamed replies, status lines, notices (docs/CONTRACTS.md, Agents). */
  private readonly activity: AgentActivity;
  /**
   * The thread open beside the chat (docs/CONTRACTS.md, Replies): its code loads when a chat opens
   * (or with the first thread opened), which the sign-in pages do not need (apps/reference/routeBudgets.json).
   */
  private threads: Promise<Threads> | null = null;
  private threadsLoaded: Threads | null = null;
  /** Renewed by every openThread and closeThread: an open whose code arrives after a newer one does nothing. */
  private threadTicket = 0;

  constructor(private readonly dependencies: MessagesServiceDependencies, options: MessagesOptions = {}) {
    this.sendTimeoutMs = options.sendTimeoutMs ?? constants.messageSendTimeoutMs;
    this.pageSize = options.pageSize ?? constants.messagePageSize;
    this.outbox = new Outbox((clientId) => this.markFailed(clientId));
    const { realtime } = dependencies;
    this.activity = new AgentActivity({ store: dependencies.store, realtime, openChatId: () => this.openChatId });
    realtime.on('new_message', ({ message, client_id, stream_id }) => {
      if (client_id !== undefined) this.outbox.confirm(client_id);
      if (message.chat_id !== this.openChatId) return;
      const incoming = messageFromWire(message, client_id, stream_id);
      this.noteChange(changedAt(incoming));
      // One update: the final message takes its placeholder's place, never both or neither shown.
      this.dependencies.store.setState((state) => {
        const settled = settleReply(state, incoming, stream_id);
        const messages = mergeMessages(settled.messages ?? state.messages, [incoming]);
        return messages === state.messages && settled.agentStatuses === undefined ? {} : { ...settled, messages };
      });
    });
    realtime.on('message_updated', ({ message }) => {
      if (message.chat_id !== this.openChatId) return;
      this.applyChanges([messageFromWire(message)]);
    });
    realtime.on('message_deleted', ({ chat_id, message_id, seq, deleted_at }) => {
      if (chat_id !== this.openChatId) return;
      const { messages, thread } = this.dependencies.store.getState();
      // A reply older than the loaded pages is held only by the open thread.
      const held = [...messages, ...(thread?.replies ?? []), ...(thread?.original ? [thread.original] : [])]
        .find((message) => message.seq === seq && message.message_id === message_id);
      if (held !== undefined) this.applyChanges([{ ...held, content: '', deleted_at }]);
      else this.noteChange(deleted_at);
    });
    realtime.on('reactions_changed', (summary) => {
      if (summary.chat_id !== this.openChatId) return;
      this.noteChange(summary.updated);
      this.updateMessages((messages) => applyReactionSummary(messages, summary));
    });
    realtime.on('joined', ({ chat_id, has_more }) => {
      if (has_more === true && chat_id === this.openChatId) void this.fillGap(chat_id);
    });
    // A refused send names its client_id as ref: it fails at once instead of timing out, and
    // Retry sends it again (a rate-limited one goes through once the sender slows down).
    realtime.on('error', ({ code, ref }) => {
      if (ref !== undefined && refusedSendCodes.has(code)) this.markFailed(ref);
    });
    // A socket that closes takes every unconfirmed send with it; sends held while it was
    // connecting go out, in the order they were written, once it is connected.
    realtime.on('state', ({ state }) => {
      if (state === 'connected') {
        // Edits and deletions made while this client was away: new messages come with the re-join.
        if (this.connectedBefore && this.openChatId !== null) void this.catchUpChanges(this.openChatId);
        this.connectedBefore = true;
        // After the connection has re-joined its chats (in the same task), so each send's
        // new_message comes back on a socket that is in the chat.
        queueMicrotask(() => {
          const held = [...this.held];
          this.held.clear();
          for (const clientId of held) this.transmit(clientId);
        });
      } else {
        for (const clientId of this.outbox.waitingIds()) if (!this.held.has(clientId)) this.markFailed(clientId);
        if (state !== 'connecting') for (const clientId of this.held) this.markFailed(clientId);
      }
    });
  }

  /**
   * Asks for chatId's record and latest page now, before its page is on screen (a full load of
   * /chat/{id}, as soon as the session is known), so the next open(chatId) uses those answers
   * instead of asking again. Only one chat is prefetched at a time; a failed or stale prefetch is
   * not used (one made without a session fails, so it is never used either).
   */
  prefetch(chatId: string): void {
    if (this.prefetched?.chatId === chatId && this.isFresh(this.prefetched)) return;
    const chat = this.dependencies.getChat(chatId);
    const page = this.fetchPage(chatId, null);
    // Unhandled until an open takes them: a failure here is the open's to report, or nobody's.
    chat.catch(() => {});
    page.catch(() => {});
    this.prefetched = { chatId, startedAt: Date.now(), chat, page };
  }

  /**
   * Makes chatId the current chat (isCurrentUserAdmin follows), loads its latest page and joins
   * it from the last loaded seq, so nothing sent in between is missed. The record and the page
   * are asked for together, or taken from a prefetch of the same chat.
   */
  async open(chatId: string): Promise<void> {
    this.loadQuotes();
    this.loadThreads().catch(() => {});
    const { store, realtime } = this.dependencies;
    if (this.openChatId !== null && this.openChatId !== chatId) realtime.leave(this.openChatId);
    const signal = this.loads.renew();
    this.openChatId = chatId;
    this.olderRequest = null;
    this.seenChangesUntil = '';
    this.activity.reset();
    if (store.getState().thread?.chat_id !== chatId) this.closeThread();
    const known = store.getState().chats.find((chat) => chat.id === chatId) ?? null;
    store.setState({ currentChat: known, messages: [], hasOlderMessages: false, loadingMessages: true });
    const prefetched = this.takePrefetch(chatId);
    try {
      const chatRequest = known === null ? this.orAgain(prefetched?.chat, () => this.dependencies.getChat(chatId)) : null;
      // A page prefetched while the chat could not be read (e.g. before the user joined it) is not used either.
      const prefetchedPage = prefetched === null ? undefined : prefetched.chat.then(() => prefetched.page);
      const pageRequest = this.orAgain(prefetchedPage, () => this.fetchPage(chatId, null));
      // A chat that cannot be read fails the open, whatever became of its page.
      pageRequest.catch(() => {});
      if (chatRequest !== null) {
        const chat = await chatRequest;
        if (signal.aborted) return;
        store.setState({ currentChat: chat });
      }
      const page = await pageRequest;
      if (signal.aborted) return;
      store.setState((state) => ({ messages: mergeMessages(state.messages, page.messages), hasOlderMessages: page.hasMore, loadingMessages: false }));
      for (const message of page.messages) this.noteChange(changedAt(message));
      realtime.join(chatId, page.messages.at(-1)?.seq ?? 0);
      // Used: the next open of this chat asks afresh.
      if (this.prefetched === prefetched) this.prefetched = null;
    } catch (error) {
      if (this.prefetched === prefetched) this.prefetched = null;
      if (!signal.aborted) store.setState({ loadingMessages: false });
      throw toConfabError(error);
    }
  }

  /** Closes the current chat if it is chatId: leaves it and clears currentChat and the messages. */
  closeChat(chatId: string): void {
    if (this.openChatId !== chatId) return;
    this.loads.renew();
    this.openChatId = null;
    this.olderRequest = null;
    this.activity.reset();
    this.closeThread();
    this.dependencies.realtime.leave(chatId);
    this.dependencies.store.setState({ currentChat: null, messages: [], hasOlderMessages: false, loadingMessages: false });
  }

  /** Prepends the page before the oldest loaded message. Concurrent calls share one request. */
  loadOlder(chatId: string): Promise<{ hasMore: boolean }> {
    const { store } = this.dependencies;
    if (chatId !== this.openChatId) return Promise.resolve({ hasMore: false });
    if (this.olderRequest !== null) return this.olderRequest;
    const before = oldestSeq(store.getState().messages);
    if (!store.getState().hasOlderMessages || before === null) return Promise.resolve({ hasMore: false });
    const signal = this.loads.signal;
    store.setState({ loadingMessages: true });
    const request = this.fetchPage(chatId, before).then(
      (page) => {
        if (signal.aborted) return { hasMore: false };
        store.setState((state) => ({ messages: mergeMessages(state.messages, page.messages), hasOlderMessages: page.hasMore, loadingMessages: false }));
        return { hasMore: page.hasMore };
      },
      (error: unknown) => {
        if (!signal.aborted) store.setState({ loadingMessages: false });
        throw toConfabError(error);
      },
    );
    this.olderRequest = request;
    const clear = () => {
      if (this.olderRequest === request) this.olderRequest = null;
    };
    request.then(clear, clear);
    return request;
  }

  /**
   * Sends optimistically: the returned message (status 'pending', seq null) is in store.messages
   * at once, becomes 'sent' when the server's new_message for its client_id arrives, and
   * 'failed' after sendTimeoutMs, on an invalid_message error, or when the socket closes.
   * Throws a ConfabError for empty content or without a user. With `replyTo` it is a reply to
   * that message (a reply to a reply joins its original's thread, as the server stores it).
   *
   * @example
   * client.messages.send(chatId, 'Yes, 12 works', { replyTo: message.message_id });
   */
  send(chatId: string, content: string, options: MessageSendOptions = {}): ClientMessage {
    const user = this.dependencies.currentUser();
    const problem = validateMessage(content);
    if (problem !== null) throw new ConfabError(problem, 400);
    const clientId = newClientId();
    const message: ClientMessage = {
      message_id: clientId,
      chat_id: chatId,
      author_id: user.id,
      author_name: displayNameOf(user),
      author_username: user.username,
      content: content.trim(),
      created_at: new Date().toISOString(),
      message_type: 'regular',
      seq: null,
      client_id: clientId,
      status: 'pending',
      is_agent: false,
      ...this.replyFields(options.replyTo),
    };
    if (chatId === this.openChatId) this.dependencies.store.setState((state) => ({ messages: [...state.messages, message] }));
    this.outbox.add(clientId, { chatId, content: message.content, replyTo: options.replyTo });
    this.transmit(clientId);
    return message;
  }

  /**
   * The author replaces the content of their message (PATCH of the record API): checked like a
   * new message first (an invalid one rejects with the exact text, status 400, without a request),
   * shown at once when the server answers; the others get message_updated.
   */
  async edit(messageId: string, content: string): Promise<void> {
    const problem = validateMessage(content);
    if (problem !== null) throw new ConfabError(problem, 400);
    let record: MessageRecord;
    try {
      record = await this.dependencies.pb.collection(messagesCollection).update<MessageRecord>(messageId, { content: content.trim() }, { expand: 'author' });
    } catch (error) {
      throw toConfabError(error);
    }
    if (record.chat === this.openChatId) this.applyChanges([messageFromRecord(record)]);
  }

  /** Deletes a message (its author, or an admin of the chat); it leaves the list at once. */
  async remove(messageId: string): Promise<void> {
    const { messages, thread } = this.dependencies.store.getState();
    const held = [...messages, ...(thread?.replies ?? [])].find((message) => message.message_id === messageId);
    try {
      await this.dependencies.pb.collection(messagesCollection).delete(messageId);
    } catch (error) {
      throw toConfabError(error);
    }
    // Gone at once here; the server's message_deleted (with its own time) follows.
    if (held !== undefined && held.seq !== null) this.applyChanges([{ ...held, content: '', deleted_at: new Date().toISOString().replace('T', ' ') }], false);
  }

  /**
   * Adds the signed-in person's `emoji` reaction (PUT /api/messages/{id}/reactions/{emoji}):
   * shown at once, then replaced by the server's summary; a refusal restores what was shown and
   * rejects with a ConfabError (the rule's text for a bad emoji, status 400).
   */
  react(messageId: string, emoji: string): Promise<void> {
    return this.changeReaction(messageId, emoji, true);
  }

  /** Removes the signed-in person's `emoji` reaction; see react. */
  unreact(messageId: string, emoji: string): Promise<void> {
    return this.changeReaction(messageId, emoji, false);
  }

  /** Opens the thread of a message beside the chat (store.thread): its original and all its replies. */
  openThread(messageId: string): Promise<void> {
    const chatId = this.openChatId;
    if (chatId === null) return Promise.resolve();
    const ticket = ++this.threadTicket;
    // Loaded when the chat opened, as a rule: then the thread shows (loading) at once, as before.
    if (this.threadsLoaded !== null) return this.threadsLoaded.open(chatId, messageId);
    return this.loadThreads().then((threads) => {
      if (ticket !== this.threadTicket || chatId !== this.openChatId) return undefined;
      return threads.open(chatId, messageId);
    });
  }

  closeThread(): void {
    this.threadTicket += 1;
    if (this.threadsLoaded !== null) this.threadsLoaded.close();
    // No thread was opened with this client's code yet: only what the store holds to forget.
    else if (this.dependencies.store.getState().thread !== null) this.dependencies.store.setState({ thread: null });
  }

  private loadThreads(): Promise<Threads> {
    const { pb, store } = this.dependencies;
    this.threads ??= import('./threads').then(
      (module) => (this.threadsLoaded = new module.Threads({ pb, store })),
      (error: unknown) => {
        // Offline or a stale build: the next open tries again.
        this.threads = null;
        throw toConfabError(error);
      },
    );
    return this.threads;
  }

  /**
   * Makes sure a message of the open chat is in store.messages, loading older pages until it is
   * (a quote's original, far up the chat); true once it is held, false when it is not this chat's.
   */
  async reveal(messageId: string): Promise<boolean> {
    const { store, pb } = this.dependencies;
    const chatId = this.openChatId;
    const held = () => store.getState().messages.some((message) => message.message_id === messageId);
    if (chatId === null) return false;
    if (held()) return true;
    let target: MessageRecord;
    try {
      target = await pb.collection(messagesCollection).getOne<MessageRecord>(messageId);
    } catch {
      return false;
    }
    if (target.chat !== chatId || typeof target.seq !== 'number') return false;
    while (!held() && this.openChatId === chatId) {
      const oldest = oldestSeq(store.getState().messages);
      if (oldest !== null && oldest <= target.seq) break;
      if (!(await this.loadOlder(chatId)).hasMore) break;
    }
    return held();
  }

  /**
   * Quoting reads markdown with marked, which the first page's code leaves out: it loads when a
   * chat opens (a chat page has marked already, for the messages themselves).
   */
  private quoteOf: QuoteOf | undefined;

  private quoteLoading: Promise<void> | undefined;

  private loadQuotes(): void {
    this.quoteLoading ??= import('../format/replyExcerpt').then(
      (module) => {
        this.quoteOf = module.replyPreviewOf;
      },
      () => {
        // Offline or a stale build: quotes come from the server only; the next open tries again.
        this.quoteLoading = undefined;
      },
    );
  }

  /** The optimistic reply's fields: the thread it joins and its quote, from the messages held. */
  private replyFields(replyTo: string | undefined): Pick<ClientMessage, 'reply_to' | 'reply_to_preview'> {
    if (replyTo === undefined) return {};
    const { messages, thread } = this.dependencies.store.getState();
    const find = (id: string) => messages.find((message) => message.message_id === id) ?? (thread?.original?.message_id === id ? thread.original : undefined);
    const named = find(replyTo);
    const originalId = named?.reply_to ?? replyTo;
    const original = find(originalId);
    // Until the quote's code is here, the server's echo brings the quote.
    if (original === undefined || this.quoteOf === undefined) return { reply_to: originalId };
    const preview = this.quoteOf({ message_id: originalId, author_name: original.author_name || original.author_username, content: original.content, deleted: original.deleted_at !== undefined });
    return { reply_to: originalId, reply_to_preview: preview };
  }

  /** Sends a failed message again with the same client_id: the server never stores it twice. */
  retry(clientId: string): void {
    if (!this.outbox.has(clientId)) return;
    this.setStatus(clientId, 'pending');
    this.transmit(clientId);
  }

  /** Forgets the open chat, a prefetch and every unconfirmed send (logout). */
  clear(): void {
    this.loads.renew();
    this.prefetched = null;
    this.held.clear();
    this.openChatId = null;
    this.olderRequest = null;
    this.outbox.clear();
  }

  private transmit(clientId: string): void {
    const entry = this.outbox.get(clientId);
    if (entry === undefined) return;
    const { realtime } = this.dependencies;
    const sent = realtime.send({
      type: 'send_message',
      chat_id: entry.chatId,
      content: entry.content,
      client_id: clientId,
      ...(entry.replyTo === undefined ? {} : { reply_to: entry.replyTo }),
    });
    if (sent) {
      this.outbox.wait(clientId, this.sendTimeoutMs);
    } else if (realtime.state === 'connecting') {
      // Written while the socket (re)connects: held, still pending, until it is connected or the
      // send deadline passes.
      this.held.add(clientId);
      this.outbox.wait(clientId, this.sendTimeoutMs);
    } else {
      this.markFailed(clientId);
    }
  }

  private markFailed(clientId: string): void {
    this.held.delete(clientId);
    this.outbox.stopWaiting(clientId);
    this.setStatus(clientId, 'failed');
  }

  private setStatus(clientId: string, status: ClientMessage['status']): void {
    this.dependencies.store.setState((state) => ({
      messages: updateUnconfirmed(state.messages, clientId, (message) => ({ ...message, status })),
    }));
  }

  private async changeReaction(messageId: string, emoji: string, on: boolean): Promise<void> {
    // The emoji rule is the server's (a 400 with its text, and the guess below undone): checking
    // it here too would put the emoji pattern into every route's bundle (apps/reference/routeBudgets.json).
    const user = this.dependencies.currentUser();
    const me = { id: user.id, username: user.username, name: user.name ?? '' };
    const before = this.dependencies.store.getState().messages.find((message) => message.message_id === messageId && message.seq !== null);
    if (before !== undefined && before.deleted_at === undefined) {
      const guess = { chat_id: before.chat_id, message_id: messageId, reactions: toggledSummary(before.reactions ?? [], me, emoji, on), version: before.reactions_version ?? 0, updated: '' };
      this.updateMessages((messages) => applyReactionSummary(messages, guess, true));
    }
    const path = `/api/messages/${encodeURIComponent(messageId)}/reactions/${encodeURIComponent(emoji)}`;
    let answer: ReactionsAnswer;
    try {
      answer = await this.dependencies.pb.send<ReactionsAnswer>(path, { method: on ? 'PUT' : 'DELETE' });
    } catch (error) {
      if (before !== undefined) {
        const restore = { chat_id: before.chat_id, message_id: messageId, reactions: before.reactions ?? [], version: before.reactions_version ?? 0, updated: '' };
        this.updateMessages((messages) => applyReactionSummary(messages, restore, true));
      }
      throw toConfabError(error);
    }
    if (answer.chat_id !== this.openChatId) return;
    this.noteChange(answer.updated);
    this.updateMessages((messages) => applyReactionSummary(messages, answer, true));
  }

  private updateMessages(change: (messages: ClientMessage[]) => ClientMessage[]): void {
    this.dependencies.store.setState((state) => {
      const messages = change(state.messages);
      return messages === state.messages ? {} : { messages };
    });
  }

  private noteChange(at: string): void {
    if (at > this.seenChangesUntil) this.seenChangesUntil = at;
  }

  /** `fromServer`: the changes carry the server's times, which move the catch-up watermark. */
  private applyChanges(changed: ClientMessage[], fromServer = true): void {
    if (fromServer) for (const message of changed) this.noteChange(changedAt(message));
    this.dependencies.store.setState((state) => {
      const messages = changeMessages(state.messages, changed, this.quoteOf);
      const thread = changeThread(state.thread, changed);
      return { ...(messages === state.messages ? {} : { messages }), ...(thread === state.thread ? {} : { thread }) };
    });
  }

  /**
   * After a reconnect: the open chat's messages edited or deleted after the latest change seen
   * (the record API's `updated`, the server's clock, so no client clock is trusted).
   */
  private async catchUpChanges(chatId: string): Promise<void> {
    const since = this.seenChangesUntil;
    if (since === '') return;
    const { pb } = this.dependencies;
    const signal = this.loads.signal;
    try {
      const records = await pb.collection(messagesCollection).getFullList<MessageRecord>({
        filter: pb.filter('chat = {:chatId} && updated > {:since}', { chatId, since }),
        sort: 'seq',
        expand: 'author',
        batch: constants.list.fullListBatchSize,
      });
      if (signal.aborted) return;
      this.applyChanges(records.map(messageFromRecord));
    } catch {
      // The watermark stays where it was: the next reconnect asks again.
    }
  }

  private merge(incoming: ClientMessage[]): void {
    this.dependencies.store.setState((state) => ({ messages: mergeMessages(state.messages, incoming) }));
  }

  /**
   * After a replay capped at its maximum (joined.has_more): pages everything after the last
   * message held without a gap over HTTP. joined.last_seq is only the end of the replay, so there
   * is no upper bound; live messages that arrive meanwhile are de-duplicated by seq.
   */
  private async fillGap(chatId: string): Promise<void> {
    const { pb, store, realtime } = this.dependencies;
    const signal = this.loads.signal;
    const from = realtime.lastSeq(chatId) ?? 0;
    try {
      const records = await pb.collection(messagesCollection).getFullList<MessageRecord>({
        filter: pb.filter('chat = {:chatId} && seq > {:from}', { chatId, from }),
        sort: 'seq',
        expand: 'author',
        batch: constants.list.fullListBatchSize,
      });
      if (signal.aborted) return;
      this.merge(records.map(messageFromRecord));
      realtime.advance(chatId, contiguousSeq(store.getState().messages, from));
    } catch {
      // The resume point stays before the gap, so the next reconnect asks for it again.
    }
  }

  /** The prefetch of chatId if it is still fresh; kept until an open that used it has finished. */
  private takePrefetch(chatId: string): Prefetch | null {
    const prefetched = this.prefetched;
    if (prefetched === null || prefetched.chatId !== chatId) return null;
    if (this.isFresh(prefetched)) return prefetched;
    this.prefetched = null;
    return null;
  }

  private isFresh(prefetched: Prefetch): boolean {
    return Date.now() - prefetched.startedAt <= prefetchFreshMs;
  }

  /**
   * The prefetched answer, or a new request when there is none or it failed: a prefetch may have
   * gone out with a session that was refreshed or replaced since.
   */
  private orAgain<Result>(prefetched: Promise<Result> | undefined, request: () => Promise<Result>): Promise<Result> {
    return prefetched === undefined ? request() : prefetched.catch(() => request());
  }

  private async fetchPage(chatId: string, beforeSeq: number | null): Promise<Page> {
    const { pb } = this.dependencies;
    const filter =
      beforeSeq === null
        ? pb.filter('chat = {:chatId}', { chatId })
        : pb.filter('chat = {:chatId} && seq < {:beforeSeq}', { chatId, beforeSeq });
    // One extra row tells whether an older page exists without counting the whole chat.
    const result = await pb.collection(messagesCollection).getList<MessageRecord>(1, this.pageSize + 1, {
      filter,
      sort: '-seq',
      expand: 'author',
      skipTotal: true,
    });
    const hasMore = result.items.length > this.pageSize;
    return { messages: result.items.slice(0, this.pageSize).reverse().map(messageFromRecord), hasMore };
  }
}

/** A random id for send_message's client_id (crypto.randomUUID exists in browsers and Node ≥ 19). */
function newClientId(): string {
  return globalThis.crypto.randomUUID();
}
