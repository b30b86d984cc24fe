import PocketBase, { BaseAuthStore, LocalAuthStore } from 'pocketbase';
import type { SendOptions } from 'pocketbase';
import { AccountService } from '../account/AccountService';
import { AgentsService } from '../agents/AgentsService';
import { ChatsService } from '../chats/ChatsService';
import { DropsService } from '../drops/DropsService';
import { InvitationsService } from '../invitations/InvitationsService';
import { ConfabError, confabErrorFromResponse, isFetchNetworkFailure, serverUnreachableError, toConfabError } from '../errors';
import { FilesService } from '../files/FilesService';
import { MessagesService } from '../messages/MessagesService';
import { PresenceService, type PresenceOptions } from '../presence/PresenceService';
import type { MessagesOptions } from '../messages/MessagesService';
import { RealtimeConnection } from '../realtime/RealtimeConnection';
import type { RealtimeOptions } from '../realtime/types';
import { createConfabStore } from '../store/createConfabStore';
import type { ConfabStore } from '../store/createConfabStore';
import type { AppConfig, UserRecord } from '../types';
import { messages } from '../validation/messages';
import { deriveConfigFromHost, mergeConfig } from './config';
import type { BrowserNotificationEnvironment } from '../notifications/browserEnvironment';
import { NotificationsService } from '../notifications/NotificationsService';

export interface ConfabClientOptions {
  /** The server's origin. Defaults to the page's origin in a browser, else http://127.0.0.1:8090. */
  baseUrl?: string | undefined;
  /**
   * Where the session lives: any pocketbase SDK auth store. Defaults to the SDK's LocalAuthStore
   * (localStorage, key `pocketbase_auth`) in browsers and its BaseAuthStore (memory) elsewhere.
   */
  authStore?: BaseAuthStore | undefined;
  /** Used for every request (record API and product endpoints); defaults to the global fetch. */
  fetch?: typeof fetch | undefined;
  /** Realtime timings (spec defaults), the WebSocket constructor, and whether auth connects it. */
  realtime?: RealtimeClientOptions | undefined;
  /** Send timeout and history page size of client.messages. */
  messages?: MessagesOptions | undefined;
  /** Typing timings of client.presence (the wire's defaults: one frame per 3 s, cleared after 6 s). */
  presence?: PresenceOptions | undefined;
  /**
   * The constructor client.files.upload() uses for upload progress. Defaults to the global
   * XMLHttpRequest (browsers) unless `fetch` is given: then uploads go through that fetch like
   * every other request. null always uploads with fetch (progress jumps to 100 at the end).
   */
  XMLHttpRequest?: typeof XMLHttpRequest | null | undefined;
  /** The Notification API, page visibility and storage client.notifications uses; default: the browser's globals. */
  notificationEnvironment?: BrowserNotificationEnvironment | undefined;
}

export interface RealtimeClientOptions extends RealtimeOptions {
  /**
   * Default true: initialize() with a valid session, login() and register() connect the realtime
   * connection. Scripts that only use the record API pass false (or call realtime.connect() themselves).
   */
  autoConnect?: boolean | undefined;
}

export interface RegisterInput {
  email: string;
  username: string;
  password: string;
  passwordConfirm: string;
  /** Where the sign-up came from, e.g. 'main-landing' (the /register `source` parameter). */
  source?: string | undefined;
  /** The /register `user_type` parameter, e.g. 'mixed'. */
  userType?: string | undefined;
}

const usersCollection = 'users';
const defaultServerUrl = 'http://127.0.0.1:8090';

/**
 * The Confab client: `pb`, the official `pocketbase` SDK for the record API and auth, the product
 * endpoints, the realtime connection, and the client state store kept in step with the session.
 *
 * @example
 * const client = new ConfabClient({ baseUrl: 'http://localhost:8090' });
 * await client.initialize();
 * await client.login('alice', 'correct horse battery');
 * client.store.getState().user?.username; // 'alice'
 */
export class ConfabClient {
  /** The pocketbase SDK: the record API (records, password auth, reset) and the session's auth store. */
  readonly pb: PocketBase;
  readonly store: ConfabStore;
  /** The gateway WebSocket; its state is mirrored in store.connectionState / isConnected. */
  readonly realtime: RealtimeConnection;
  /** Chats through the record API, kept in store.chats. */
  readonly chats: ChatsService;
  /** The open chat's messages in store.messages, and sending. */
  readonly messages: MessagesService;
  /** Invitations, share links, invites, user suggestions and the user's pending invitations */
  readonly invitations: InvitationsService;
  /** The signed-in user's own account: complete-account, username, API keys. */
  readonly account: AccountService;
  /** The files of a chat: list, upload with progress, delete, file links. */
  readonly files: FilesService;
  /** Agents: search, the user's own agents in store.agents with their keys, hosted agents. */
  readonly agents: AgentsService;
  /** Notifications: the e-mail switch, and browser notifications on this device. */
  readonly notifications: NotificationsService;
  /** Drops: the feed service, follow, create and delete, with the drops screens' state in client.drops.store. */
  readonly drops: DropsService;
  /** Who is typing (store.typists) and who is online (store.onlineUserIds); typing(chatId) tells the others. */
  readonly presence: PresenceService;
  private readonly fetchFunction: typeof fetch;
  private readonly autoConnect: boolean;
  private config: AppConfig | null = null;

  constructor(options: ConfabClientOptions = {}) {
    this.fetchFunction = answeredFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)), () => this.baseUrl);
    this.pb = new PocketBase(options.baseUrl ?? defaultBaseUrl(), options.authStore ?? defaultAuthStore());
    // The SDK cancels a pending request when another with the same key (by default its method and
    // path, query left out) starts, but the app makes concurrent requests to the same collection:
    // two chats' message pages, a page and the catch-up after a reconnect, one chat fetched by two
    // screens or twice under React strict mode. A cancelled one would surface as an abort, so
    // auto-cancellation is off; callers cancel explicitly with a `signal`.
    this.pb.autoCancellation(false);
    // The record API goes through the same fetch, so its network failures name the server too.
    const fetchFunction = this.fetchFunction;
    this.pb.beforeSend = (url: string, sendOptions: SendOptions) => ({ url, options: { ...sendOptions, fetch: fetchFunction } });
    this.store = createConfabStore();
    const { autoConnect = true, ...realtimeOptions } = options.realtime ?? {};
    this.autoConnect = autoConnect;
    this.realtime = new RealtimeConnection({
      ...realtimeOptions,
      url: async () => (await this.loadConfig()).websocket_url,
      token: () => (this.pb.authStore.isValid ? this.pb.authStore.token : null),
    });
    this.realtime.on('state', ({ state }) => this.store.actions.setConnectionState(state));
    const currentUser = () => this.requireUser();
    this.messages = new MessagesService(
      { pb: this.pb, store: this.store, realtime: this.realtime, currentUser, getChat: (chatId) => this.chats.get(chatId) },
      options.messages,
    );
    this.chats = new ChatsService({
      pb: this.pb,
      store: this.store,
      realtime: this.realtime,
      currentUser,
      onChatGone: (chatId) => this.messages.closeChat(chatId),
    });
    const request = <Result>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) =>
      this.request<Result>(path, init);
    this.invitations = new InvitationsService({
      request,
      fetch: this.fetchFunction,
      baseUrl: () => this.baseUrl,
      token: () => this.pb.authStore.token,
      store: this.store,
      realtime: this.realtime,
      onJoined: (chatId) => this.chats.include(chatId),
    });
    this.account = new AccountService({ pb: this.pb, request, currentUser, login: (identity, password) => this.login(identity, password) });
    this.files = new FilesService({
      pb: this.pb,
      request,
      fetch: this.fetchFunction,
      baseUrl: () => this.baseUrl,
      currentUser,
      xmlHttpRequest: () => uploadXMLHttpRequest(options),
      addedUploadExtensions: async () => (await this.loadConfig()).upload_extensions ?? [],
    });
    this.agents = new AgentsService({ request, store: this.store, realtime: this.realtime });
    this.drops = new DropsService({ request, realtime: this.realtime, session: this.store });
    this.presence = new PresenceService(
      { store: this.store, realtime: this.realtime, request: (path) => request(path), currentUserId: () => this.store.getState().user?.id ?? null },
      options.presence,
    );
    this.notifications = new NotificationsService({ request, realtime: this.realtime, store: this.store, environment: options.notificationEnvironment });
    this.pb.authStore.onChange(() => {
      this.syncUserFromAuthStore();
      // Signed out, possibly in another tab: the socket must not outlive the session.
      if (!this.pb.authStore.isValid) this.disconnect();
    });
  }

  /** The absolute origin requests go to. */
  get baseUrl(): string {
    return this.pb.buildURL('/').replace(/\/$/, '');
  }

  /**
   * GET /api/config; fields missing from the answer, or everything when the call fails, come
   * from the host (http(s)://host, ws(s)://host/api/ws). Cached after the first success.
   */
  async loadConfig(): Promise<AppConfig> {
    if (this.config !== null) return this.config;
    const fallback = deriveConfigFromHost(this.baseUrl);
    try {
      const response = await this.fetchFunction(`${this.baseUrl}/api/config`, { headers: { Accept: 'application/json' } });
      if (!response.ok) return fallback;
      this.config = mergeConfig(await response.json(), fallback);
      return this.config;
    } catch {
      return fallback;
    }
  }

  /**
   * App start: a stored, unexpired token is refreshed (which also reloads the user record); a
   * failed refresh or an expired token signs out. Always ends with initializing = false.
   */
  async initialize(): Promise<void> {
    const authStore = this.pb.authStore;
    try {
      if (authStore.isValid) {
        try {
          await this.pb.collection(usersCollection).authRefresh();
        } catch {
          authStore.clear();
        }
      } else if (authStore.token !== '') {
        authStore.clear();
      }
    } finally {
      this.syncUserFromAuthStore();
      this.store.actions.setInitializing(false);
    }
    this.connectIfSignedIn();
  }

  /**
   * Starts the requests the page at `pathname` opens with, before its code has loaded: for
   * /chat/{id}, the chat's record and latest messages, which the chat page's messages.open(id)
   * then uses instead of asking again. Call it right after initialize(), with the page's path;
   * it needs a stored session (the token initialize() is refreshing is still valid meanwhile)
   * and does nothing without one or on other paths.
   *
   * @example
   * client.initialize().catch(report);
   * client.preloadRoute(window.location.pathname);
   */
  preloadRoute(pathname: string): void {
    if (!this.pb.authStore.isValid) return;
    const chatId = chatIdOfPath(pathname);
    if (chatId !== null) this.messages.prefetch(chatId);
  }

  /** Password login with a username or e-mail as identity. Rejects with a ConfabError. */
  async login(identity: string, password: string): Promise<UserRecord> {
    try {
      const result = await this.pb.collection(usersCollection).authWithPassword<UserRecord>(identity, password);
      this.connectIfSignedIn();
      return result.record;
    } catch (error) {
      throw toConfabError(error);
    }
  }

  /** Creates a users record, then logs in with the same credentials. */
  async register(input: RegisterInput): Promise<UserRecord> {
    const body: Record<string, unknown> = {
      email: input.email.trim(),
      username: input.username.trim(),
      password: input.password,
      passwordConfirm: input.passwordConfirm,
      type: 'user',
    };
    // Sign-up attribution only; a PocketBase-compatible server ignores fields it does not know.
    if (input.source !== undefined) body['source'] = input.source;
    if (input.userType !== undefined) body['user_type'] = input.userType;
    try {
      await this.pb.collection(usersCollection).create<UserRecord>(body);
    } catch (error) {
      throw toConfabError(error);
    }
    return this.login(input.username.trim(), input.password);
  }

  /** Clears the session and the client state, and closes the realtime connection for good. */
  logout(): void {
    this.disconnect();
    this.pb.authStore.clear();
    this.store.actions.reset();
  }

  /** Asks the server to mail a reset link. The server answers alike for unknown addresses. */
  async requestPasswordReset(email: string): Promise<void> {
    try {
      await this.pb.collection(usersCollection).requestPasswordReset(email.trim());
    } catch (error) {
      throw toConfabError(error);
    }
  }

  async confirmPasswordReset(token: string, password: string, passwordConfirm: string): Promise<void> {
    try {
      await this.pb.collection(usersCollection).confirmPasswordReset(token, password, passwordConfirm);
    } catch (error) {
      throw toConfabError(error);
    }
  }

  /** The signed-in user, for operations that need one. */
  requireUser(): UserRecord {
    const record = this.pb.authStore.record;
    if (!this.pb.authStore.isValid || record === null) {
      throw new ConfabError(messages.userNotAuthenticated, 401);
    }
    return record as unknown as UserRecord;
  }

  /**
   * fetch for product endpoints (docs/PRODUCT.md §7): JSON in and out, the session's bearer token,
   * and a ConfabError for any failure or status >= 400.
   */
  async request<Result>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<Result> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.pb.authStore.token !== '') headers['Authorization'] = `Bearer ${this.pb.authStore.token}`;
    let response: Response;
    try {
      response = await this.fetchFunction(`${this.baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.signal ?? null,
      });
    } catch (error) {
      throw toConfabError(error);
    }
    if (response.status >= 400) throw await confabErrorFromResponse(response);
    if (response.status === 204) return undefined as Result;
    try {
      const text = await response.text();
      return (text === '' ? undefined : JSON.parse(text)) as Result;
    } catch (error) {
      throw toConfabError(error);
    }
  }

  private connectIfSignedIn(): void {
    if (this.autoConnect && this.pb.authStore.isValid) this.realtime.connect();
  }

  private disconnect(): void {
    this.messages.clear();
    this.presence.clear();
    this.realtime.close();
  }

  private syncUserFromAuthStore(): void {
    const authStore = this.pb.authStore;
    const user = authStore.isValid && authStore.record !== null ? (authStore.record as unknown as UserRecord) : null;
    if (this.store.getState().user !== user) this.store.actions.setUser(user);
  }
}

/** `fetchFunction`, rejecting with serverUnreachableError when a request gets no answer. */
function answeredFetch(fetchFunction: typeof fetch, baseUrl: () => string): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchFunction(input, init);
    } catch (error) {
      throw isFetchNetworkFailure(error) ? serverUnreachableError(baseUrl(), error) : error;
    }
  };
}

/** The id of /chat/{id} (docs/PRODUCT.md §2), else null: /chat/new and the chat's sub-pages open no messages. */
function chatIdOfPath(pathname: string): string | null {
  const segment = /^\/chat\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (segment === undefined || segment === 'new') return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** See ConfabClientOptions.XMLHttpRequest. */
function uploadXMLHttpRequest(options: ConfabClientOptions): typeof XMLHttpRequest | null {
  if (options.XMLHttpRequest !== undefined) return options.XMLHttpRequest;
  if (options.fetch !== undefined) return null;
  return typeof globalThis.XMLHttpRequest === 'function' ? globalThis.XMLHttpRequest : null;
}

function defaultBaseUrl(): string {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return typeof location?.origin === 'string' && location.origin.startsWith('http') ? location.origin : defaultServerUrl;
}

/**
 * localStorage when the environment has a usable one (browsers), memory elsewhere. The SDK's
 * LocalAuthStore keeps `{token, record}` as JSON under `pocketbase_auth`, so a session saved by
 * any earlier version of the app (or by the SDK in another app on the origin) stays signed in.
 */
function defaultAuthStore(): BaseAuthStore {
  try {
    if (typeof window !== 'undefined' && window.localStorage !== undefined) return new LocalAuthStore();
  } catch {
    // Sandboxed iframes and privacy modes throw on localStorage access.
  }
  return new BaseAuthStore();
}
