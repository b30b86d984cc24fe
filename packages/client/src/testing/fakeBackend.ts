/**
 * A tiny in-memory stand-in for confab-server's account endpoints, speaking the PocketBase wire
 * format (docs/PROTOCOLS.md, PocketBase wire format). Tests and stories hand its `fetch` to a real
 * ConfabClient, so screens are exercised through the real client and SDK, not mocks.
 *
 * Not exported from the package: it knows only what the screens need, and none of the server's
 * rules (docs/STYLE.md, One fake, held to the real thing): those are tested on the real server.
 */
import type { ChatFile } from '../files/chatFile';
import type { AgentView, ChatReadState, MessageFile, SystemLine, WireDrop } from '../protocol';
import { announceUpdate } from './fakeAnnouncements';
import type { AgentPermissions } from '../types';
import { buildFakeAgent, createAgentRoutes, type FakeAgentInput } from './fakeAgents';
import { buildFakeDrop, createDropRoutes, dropSeenBy, type FakeDropInput, type FakeDropsData } from './fakeDrops';
import { buildFileRecord, createFileRoutes, type FakeFileInput } from './fakeFiles';
import { maxMessageLength, replyToRefusedText } from '../protocol';
import { extractMentions, replyPreviewOf, stripUnsafeCharacters } from '../rules';
import { callerId, collectionIds, errorResponse, json, nextRecordId, notFound, stamp } from './fakeHttp';
import { createNotificationRoutes } from './fakeNotifications';
import { buildFakeInvitation, createInvitationRoutes, type FakeInvitation, type FakeInvitationInput } from './fakeInvitations';
import { createPresenceRoutes } from './fakePresence';
import { createReactionRoutes, fakeReactionSummary, type FakeReaction } from './fakeReactions';

export { errorResponse, json } from './fakeHttp';
export type { FakeAgentInput } from './fakeAgents';
export type { FakeDropInput, FakeDropsData } from './fakeDrops';
export type { FakeFileInput } from './fakeFiles';
export type { FakeInvitation, FakeInvitationInput } from './fakeInvitations';

export interface FakeUser {
  id: string;
  username: string;
  email: string;
  name: string;
  password: string;
  /** 'user' unless given; 'confab-agent' or 'developer-agent' for agents. */
  type?: string;
  /** A server admin (the signed-in user record's is_admin). */
  is_admin?: boolean;
  /** Whether the user saved a provider key (the key itself never leaves the server). */
  openai_api_key_set?: boolean;
  gemini_api_key_set?: boolean;
  /** False once the user turned missed-mention mails off (GET/POST /api/notifications/settings). */
  email_notifications?: boolean;
}

export interface FakeChat {
  id: string;
  name: string;
  description: string;
  creator: string;
  participants: string[];
  admins: string[];
  email_address: string;
  agent_permissions: AgentPermissions | null;
  auto_route_enabled: boolean;
  auto_route_agent: string;
  created: string;
  updated: string;
  /** Read positions by user id; a user without one has read everything (as after joining). */
  last_read?: Record<string, number>;
  /** Users who muted the chat. */
  muted_by?: string[];
  /** Users who set the chat to notify of all messages (the others: mentions and replies). */
  notify_all_by?: string[];
}

export interface FakeMessage {
  id: string;
  chat: string;
  author: string;
  content: string;
  message_type: string;
  seq: number;
  created: string;
  /** Set by an edit (the server's datetime format). */
  edited_at?: string;
  /** Set by a deletion; the content is then ''. */
  deleted_at?: string;
  /** Reactions, oldest first (fakeReactions.ts). */
  reactions?: FakeReaction[];
  reactions_version?: number;
  /** Set by a reaction change or the server's own change (a file message whose file was deleted); otherwise the latest of created, edited_at and deleted_at. */
  updated?: string;
  /** The thread's original it replies to (docs/CONTRACTS.md, Replies). */
  reply_to?: string;
  /** Set with each reply: when its reply count last moved. */
  replied_at?: string;
  /** A file message's file (fakeAnnouncements.ts). */
  file?: MessageFile;
  /** A system line's change (fakeAnnouncements.ts). */
  system?: SystemLine;
}

export type FakeRoute = (request: Request, body: Record<string, unknown>) => Response | Promise<Response>;

export interface FakeBackend {
  /** Pass to `new ConfabClient({ fetch })`. */
  fetch: typeof fetch;
  users: FakeUser[];
  /** Chats of the record API (`chats` collection); the caller sees those they take part in. */
  chats: FakeChat[];
  /** Messages of the record API (`messages` collection). */
  messages: FakeMessage[];
  /** Adds a chat (creator = first participant, admin too unless given) and returns it. */
  addChat(input: Partial<FakeChat> & { name: string; participants: string[] }): FakeChat;
  /** Adds `count` messages to a chat, authored in turn by `authors`, one minute apart. */
  addMessages(chatId: string, count: number, authors: string[], content?: (index: number) => string): FakeMessage[];
  /** Files of the record API (`files` collection); uploads land here. */
  files: ChatFile[];
  /** Adds a file record (each a minute newer than the previous one) and returns it. */
  addFile(input: FakeFileInput): ChatFile;
  /** DELETE of these file ids answers this status instead of the uploader-only rule. */
  deleteOutcomes: Map<string, number>;
  /** Every file token POST /api/files/token handed out. */
  fileTokens: string[];
  /** Pending e-mail invitations, each addressed to one user (GET /api/my-invitations answers the caller's). */
  invitations: FakeInvitation[];
  /** Adds a pending invitation for `invitee` and returns it. */
  addInvitation(input: FakeInvitationInput): FakeInvitation;
  /** Agents the agent routes know (mine answers all of them; search those whose name, username or type contains the query). */
  agents: AgentView[];
  /** Adds an agent (a developer agent unless agent_type says otherwise) and returns it. */
  addAgent(input: FakeAgentInput): AgentView;
  /** Every API key handed out by create and rotate-key, newest last. */
  agentKeys: string[];
  /** The drops routes' data (fakeDrops.ts): drops, each person's likes and bookmarks, the follows, the notification count. */
  dropData: FakeDropsData;
  /** Adds a drop (each an hour newer than the previous one) and returns it. */
  addDrop(input: FakeDropInput): WireDrop;
  /** A drop (by id or slug) as the user with this id reads it: their own is_liked and is_bookmarked. */
  dropSeenBy(userId: string, idOrSlug: string): WireDrop | undefined;
  /** Ids of the people GET /api/chats/{id}/presence answers online (the fake has no sockets). */
  online: Set<string>;
  /** Reset tokens that confirm-password-reset accepts. */
  resetTokens: Set<string>;
  /** Every request seen, as 'METHOD /path' plus its JSON body (multipart: the fields, files as File). */
  requests: Array<{ route: string; body: Record<string, unknown> }>;
  /** Answer a route ('POST /api/collections/users/auth-with-password') your own way. */
  override(route: string, handler: FakeRoute): void;
  /** Hold every request until the returned function is called (shows "submitting" states). */
  hold(): () => void;
  /** The next request, whatever its route, answers this PocketBase error instead. */
  failNext(status: number, message: string, data?: Record<string, unknown>): void;
}

const usersPath = '/api/collections/users';

function base64Url(value: string): string {
  return btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT whose `exp` the SDK's auth store reads to decide the session is valid. */
let tokenCounter = 0;

export function fakeToken(userId: string, lifetimeSeconds = 3600): string {
  tokenCounter += 1;
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  // `n` makes every token new, as a refresh on the server hands out a new one.
  const payload = base64Url(
    JSON.stringify({ id: userId, collectionId: '_pb_users_auth_', type: 'auth', refreshable: true, exp: Math.floor(Date.now() / 1000) + lifetimeSeconds, n: tokenCounter }),
  );
  return `${header}.${payload}.fake-signature`;
}

export function userRecord(user: FakeUser): Record<string, unknown> {
  const stamp = '2026-01-01 00:00:00.000Z';
  return {
    id: user.id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    username: user.username,
    email: user.email,
    name: user.name,
    type: user.type ?? 'user',
    is_admin: user.is_admin === true,
    openai_api_key_set: user.openai_api_key_set === true,
    gemini_api_key_set: user.gemini_api_key_set === true,
    emailVisibility: false,
    verified: false,
    soft_registered: false,
    signup_completed: true,
    created: stamp,
    updated: stamp,
  };
}

let idCounter = 0;
function nextId(): string {
  idCounter += 1;
  return `user${String(idCounter).padStart(11, '0')}`;
}

export function createFakeBackend(options: { users?: Array<Omit<FakeUser, 'id'> & { id?: string }> } = {}): FakeBackend {
  const users: FakeUser[] = (options.users ?? []).map((user) => ({ ...user, id: user.id ?? nextId() }));
  const chats: FakeChat[] = [];
  const messages: FakeMessage[] = [];
  const files: ChatFile[] = [];
  const invitations: FakeInvitation[] = [];
  const agents: AgentView[] = [];
  const agentKeys: string[] = [];
  const dropData: FakeDropsData = { drops: [], reactions: new Map(), follows: new Set(), otherFollowers: new Map(), notificationCount: 0 };
  const deleteOutcomes = new Map<string, number>();
  const fileTokens: string[] = [];
  const resetTokens = new Set<string>();
  const online = new Set<string>();
  const requests: FakeBackend['requests'] = [];
  const overrides = new Map<string, FakeRoute>();
  let gate: Promise<void> | null = null;
  let failure: { status: number; message: string; data: Record<string, unknown> } | null = null;

  const routes: Record<string, FakeRoute> = {
    'GET /api/config': () =>
      json(200, { api_base_url: 'http://confab.test', websocket_url: 'ws://confab.test/api/ws', environment: 'test', public_domain: 'confab.test' }),
    [`POST ${usersPath}/auth-with-password`]: (_request, body) => {
      const identity = String(body['identity'] ?? '');
      const user = users.find((candidate) => candidate.username === identity || candidate.email === identity || candidate.id === identity);
      if (user === undefined || user.password !== body['password']) return errorResponse(400, 'Failed to authenticate.');
      return json(200, { token: fakeToken(user.id), record: userRecord(user) });
    },
    [`POST ${usersPath}/auth-refresh`]: (request) => {
      const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      const payload = token.split('.')[1];
      const id = payload ? (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { id?: string }).id : undefined;
      const user = users.find((candidate) => candidate.id === id);
      if (user === undefined) return errorResponse(401, 'Missing or invalid authentication.');
      return json(200, { token: fakeToken(user.id), record: userRecord(user) });
    },
    [`POST ${usersPath}/records`]: (_request, body) => {
      const data: Record<string, { code: string; message: string }> = {};
      // The server's wording (PocketBase's for auth identities); names and addresses compare case-insensitively.
      const taken = (field: 'username' | 'email') => ({ code: 'validation_not_unique', message: `The ${field} is invalid or already in use.` });
      const same = (a: string, b: unknown) => a.toLowerCase() === String(b ?? '').trim().toLowerCase();
      if (users.some((user) => same(user.username, body['username']))) data['username'] = taken('username');
      if (users.some((user) => same(user.email, body['email']))) data['email'] = taken('email');
      if (body['password'] !== body['passwordConfirm']) data['passwordConfirm'] = { code: 'validation_values_mismatch', message: "Values don't match." };
      if (Object.keys(data).length > 0) return errorResponse(400, 'Failed to create record.', data);
      const user: FakeUser = {
        id: nextId(),
        username: String(body['username'] ?? '').trim(),
        email: String(body['email'] ?? '').trim().toLowerCase(),
        name: String(body['name'] ?? '').trim(),
        password: String(body['password']),
      };
      users.push(user);
      return json(200, userRecord(user));
    },
    [`POST ${usersPath}/request-password-reset`]: () => new Response(null, { status: 204 }),
    [`POST ${usersPath}/confirm-password-reset`]: (_request, body) => {
      const token = String(body['token'] ?? '');
      if (!resetTokens.has(token)) {
        return errorResponse(400, 'Failed to confirm password reset.', { token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' } });
      }
      resetTokens.delete(token);
      return new Response(null, { status: 204 });
    },
  };

  const records = createRecordRoutes({ users, chats, messages });
  const fileRoutes = createFileRoutes({ users, chats, messages, files, deleteOutcomes, fileTokens });
  const invitationRoutes = createInvitationRoutes({ users, chats, messages, invitations });
  const agentRoutes = createAgentRoutes({ agents, agentKeys });
  const dropRoutes = createDropRoutes(dropData, chats);
  const presenceRoutes = createPresenceRoutes({ users, chats, online });
  const reactionRoutes = createReactionRoutes({ users, chats, messages });

  /** `form` is a multipart body, read as given: serialising it through Request would lose file names. */
  const handle = async (request: Request, form: FormData | null): Promise<Response> => {
    if (gate !== null) await gate;
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    let body: Record<string, unknown>;
    if (form !== null) {
      body = Object.fromEntries(form.entries());
    } else {
      const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    }
    requests.push({ route, body });
    if (failure !== null) {
      const { status, message, data } = failure;
      failure = null;
      return errorResponse(status, message, data);
    }
    const handler = overrides.get(route) ?? routes[route];
    if (handler) return handler(request, body);
    const recordResponse = records(request, url, body) ?? fileRoutes(request, url, body) ?? invitationRoutes(request, url, body) ?? agentRoutes(request, url, body) ?? dropRoutes(request, url, body) ?? presenceRoutes(request, url) ?? reactionRoutes(request, url);
    return recordResponse ?? errorResponse(404, "The requested resource wasn't found.");
  };

  return {
    fetch: (input, init) => {
      const form = init?.body instanceof FormData ? init.body : null;
      return handle(new Request(input, form === null ? init : { ...init, body: null }), form);
    },
    users,
    chats,
    messages,
    files,
    addFile: (input) => {
      const file = buildFileRecord(input);
      files.push(file);
      return file;
    },
    deleteOutcomes,
    fileTokens,
    addChat: (input) => {
      const creator = input.creator ?? input.participants[0] ?? '';
      const chat: FakeChat = {
        id: input.id ?? nextRecordId('chat'),
        description: '',
        creator,
        admins: [creator],
        email_address: `${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-abc123`,
        agent_permissions: null,
        auto_route_enabled: false,
        auto_route_agent: '',
        created: stamp(0),
        updated: stamp(0),
        ...input,
      };
      chats.push(chat);
      return chat;
    },
    addMessages: (chatId, count, authors, content = (index) => `Message ${index + 1}`) => {
      const start = messages.filter((message) => message.chat === chatId).length;
      const added = Array.from({ length: count }, (_, offset): FakeMessage => {
        const index = start + offset;
        return {
          id: nextRecordId('msg'),
          chat: chatId,
          author: authors[index % authors.length] ?? '',
          content: content(index),
          message_type: 'regular',
          seq: index + 1,
          created: stamp(index),
        };
      });
      messages.push(...added);
      return added;
    },
    invitations,
    addInvitation: (input) => {
      const invitation = buildFakeInvitation(input);
      invitations.push(invitation);
      return invitation;
    },
    agents,
    addAgent: (input) => {
      const agent = buildFakeAgent(input);
      agents.push(agent);
      return agent;
    },
    agentKeys,
    dropData,
    addDrop: (input) => {
      const drop = buildFakeDrop(input, dropData.drops.length);
      dropData.drops.push(drop);
      return drop;
    },
    dropSeenBy: (userId, idOrSlug) => {
      const drop = dropData.drops.find((candidate) => candidate.id === idOrSlug || candidate.slug === idOrSlug);
      return drop === undefined ? undefined : dropSeenBy(dropData, userId, drop);
    },
    resetTokens,
    online,
    requests,
    override: (route, handler) => overrides.set(route, handler),
    failNext: (status, message, data = {}) => {
      failure = { status, message, data };
    },
    hold: () => {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
      return release;
    },
  };
}

function applyRelationPatch(current: string[], body: Record<string, unknown>, field: string): string[] {
  let next = Array.isArray(body[field]) ? (body[field] as string[]).map(String) : current;
  const add = body[`${field}+`];
  const remove = body[`${field}-`];
  if (add !== undefined) next = [...new Set([...next, ...([] as unknown[]).concat(add).map(String)])];
  if (remove !== undefined) {
    const removed = new Set(([] as unknown[]).concat(remove).map(String));
    next = next.filter((id) => !removed.has(id));
  }
  return next;
}

/** The `chats` and `messages` collections of the record API, enough for the chat screens. */
function createRecordRoutes(data: { users: FakeUser[]; chats: FakeChat[]; messages: FakeMessage[] }) {
  const userJson = (id: string) => {
    const user = data.users.find((candidate) => candidate.id === id);
    return user ? { ...userRecord(user), email: undefined } : undefined;
  };
  const lastSeqOf = (chat: FakeChat) => data.messages.filter((message) => message.chat === chat.id).reduce((last, message) => Math.max(last, message.seq), 0);
  /** The caller's read state of the chat, as the server counts it (mentions: `@username` in others' messages). */
  const readStateOf = (chat: FakeChat, userId: string): ChatReadState => {
    const lastSeq = lastSeqOf(chat);
    const lastRead = Math.min(chat.last_read?.[userId] ?? lastSeq, lastSeq);
    const username = data.users.find((user) => user.id === userId)?.username.toLowerCase();
    const mentions = data.messages.filter(
      (message) =>
        message.chat === chat.id &&
        message.seq > lastRead &&
        message.author !== userId &&
        username !== undefined &&
        (extractMentions(message.content).includes(username) || data.messages.some((original) => original.id === message.reply_to && original.author === userId)),
    );
    return { chat_id: chat.id, last_read_seq: lastRead, unread_count: lastSeq - lastRead, mention_count: mentions.length, muted: chat.muted_by?.includes(userId) === true, notify_level: chat.notify_all_by?.includes(userId) === true ? 'all' : 'mentions' };
  };
  const chatJson = (chat: FakeChat, expand: string, caller: string) => {
    const wanted = expand.split(',');
    const expanded: Record<string, unknown> = {};
    if (wanted.includes('participants')) expanded['participants'] = chat.participants.map(userJson).filter(Boolean);
    if (wanted.includes('admins')) expanded['admins'] = chat.admins.map(userJson).filter(Boolean);
    const { last_read: _positions, muted_by: _muted, notify_all_by: _notifyAll, ...fields } = chat;
    const { chat_id: _chat, ...readState } = readStateOf(chat, caller);
    return {
      collectionId: collectionIds.chats,
      collectionName: 'chats',
      ...fields,
      agent_permissions: resolvedAgentPermissions(chat.agent_permissions),
      is_inbox: false,
      last_seq: lastSeqOf(chat),
      ...readState,
      expand: expanded,
    };
  };
  /** What a reply quotes of its original, as the server makes it. */
  const previewOf = (originalId: string) => {
    const original = data.messages.find((candidate) => candidate.id === originalId);
    const author = data.users.find((user) => user.id === original?.author);
    if (original === undefined) return undefined;
    return replyPreviewOf({ message_id: original.id, author_name: author?.name || author?.username || '', content: original.content, deleted: original.deleted_at !== undefined });
  };
  const messageJson = (message: FakeMessage, expand: string) => {
    const { replied_at: repliedAt, ...fields } = message;
    const preview = message.reply_to === undefined ? undefined : previewOf(message.reply_to);
    return {
      collectionId: collectionIds.messages,
      collectionName: 'messages',
      client_id: '',
      ...fields,
      content: message.deleted_at === undefined ? message.content : '',
      edited_at: message.edited_at ?? '',
      deleted_at: message.deleted_at ?? '',
      reactions: fakeReactionSummary(message, data.users),
      reactions_version: message.reactions_version ?? 0,
      reply_to: message.reply_to ?? '',
      ...(preview === undefined ? {} : { reply_to_preview: preview }),
      reply_count: data.messages.filter((candidate) => candidate.reply_to === message.id).length,
      file: message.deleted_at === undefined ? (message.file ?? null) : null,
      system: message.deleted_at === undefined ? (message.system ?? null) : null,
      // The latest change: creation, an edit, a deletion, a reaction (`updated`) or a new reply.
      updated: [message.created, message.edited_at, message.deleted_at, message.updated, repliedAt].filter((at): at is string => at !== undefined).sort().at(-1) ?? message.created,
      expand: expand.includes('author') ? { author: userJson(message.author) } : {},
    };
  };
  const page = <T,>(items: T[], url: URL) => {
    const perPage = Number(url.searchParams.get('perPage') ?? 30);
    const pageNumber = Number(url.searchParams.get('page') ?? 1);
    return {
      page: pageNumber,
      perPage,
      totalItems: items.length,
      totalPages: Math.max(1, Math.ceil(items.length / perPage)),
      items: items.slice((pageNumber - 1) * perPage, pageNumber * perPage),
    };
  };

  const notificationRoutes = createNotificationRoutes({ users: data.users, chats: data.chats, readStateOf });

  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    const notificationResponse = notificationRoutes(request, url, body);
    if (notificationResponse !== null) return notificationResponse;
    const readRoute = /^\/api\/chats\/([^/]+)\/(read|mute)$/.exec(url.pathname);
    if (readRoute !== null && request.method === 'POST') {
      const caller = callerId(request);
      if (caller === null) return errorResponse(401, 'The request requires valid record authorization token.');
      const chat = data.chats.find((candidate) => candidate.id === readRoute[1] && candidate.participants.includes(caller));
      if (chat === undefined) return notFound();
      if (readRoute[2] === 'read') {
        const seq = body['seq'];
        if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) {
          return errorResponse(400, 'Failed to mark the chat read.', { seq: { code: 'validation_invalid_value', message: 'Must be a whole number of 0 or more.' } });
        }
        const known = readStateOf(chat, caller).last_read_seq;
        chat.last_read = { ...chat.last_read, [caller]: Math.max(known, Math.min(seq, lastSeqOf(chat))) };
      } else {
        if (typeof body['muted'] !== 'boolean') {
          return errorResponse(400, 'Failed to change the chat.', { muted: { code: 'validation_invalid_value', message: 'Must be true or false.' } });
        }
        const others = (chat.muted_by ?? []).filter((userId) => userId !== caller);
        chat.muted_by = body['muted'] ? [...others, caller] : others;
      }
      return json(200, readStateOf(chat, caller));
    }
    const match = /^\/api\/collections\/(chats|messages|users)\/records(?:\/([^/]+))?$/.exec(url.pathname);
    if (match === null) return null;
    const [, collection, id] = match;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'The request requires valid record authorization token.');

    if (collection === 'users') {
      // Only one's own record, as on the server; any other answers 404.
      const user = data.users.find((candidate) => candidate.id === id && candidate.id === caller);
      if (user === undefined || request.method !== 'PATCH') return errorResponse(404, "The requested resource wasn't found.");
      if (typeof body['username'] === 'string') {
        const username = body['username'].trim();
        if (data.users.some((other) => other !== user && other.username.toLowerCase() === username.toLowerCase())) {
          return errorResponse(400, 'Failed to update record.', { username: { code: 'validation_not_unique', message: 'The username is invalid or already in use.' } });
        }
        user.username = username;
      }
      if (typeof body['name'] === 'string') user.name = body['name'].trim();
      for (const provider of ['openai', 'gemini'] as const) {
        const key = body[`${provider}_api_key`];
        if (typeof key === 'string') user[`${provider}_api_key_set`] = key.trim() !== '';
      }
      return json(200, userRecord(user));
    }
    const expand = url.searchParams.get('expand') ?? '';
    const sort = url.searchParams.get('sort') ?? '';
    const filter = url.searchParams.get('filter') ?? '';

    if (collection === 'chats') {
      const visible = data.chats.filter((chat) => chat.participants.includes(caller));
      const chat = id === undefined ? undefined : visible.find((candidate) => candidate.id === id);
      if (id !== undefined && chat === undefined) return notFound();
      if (request.method === 'GET' && chat) return json(200, chatJson(chat, expand, caller));
      if (request.method === 'GET') {
        const sorted = [...visible].sort((a, b) => (sort === '-updated' ? b.updated.localeCompare(a.updated) : 0));
        const result = page(sorted, url);
        return json(200, { ...result, items: result.items.map((item) => chatJson(item, expand, caller)) });
      }
      if (request.method === 'POST') {
        const name = cleanText(body['name']);
        if (name === '') return errorResponse(400, 'Failed to create record.', { name: { code: 'validation_required', message: 'Cannot be blank.' } });
        const created: FakeChat = {
          id: nextRecordId('chat'),
          name,
          description: cleanText(body['description']),
          creator: caller,
          participants: [...new Set([caller, ...(Array.isArray(body['participants']) ? (body['participants'] as unknown[]).map(String) : [])])],
          admins: [caller],
          email_address: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24) || 'chat'}-x1y2z3`,
          agent_permissions: null,
          auto_route_enabled: false,
          auto_route_agent: '',
          created: now(),
          updated: now(),
          last_read: {},
        };
        // Everyone starts reading the new chat at its beginning.
        created.last_read = Object.fromEntries(created.participants.map((member) => [member, 0]));
        data.chats.push(created);
        return json(200, chatJson(created, expand, caller));
      }
      // Admins change and delete a chat; anyone else gets the server's 404, as for a chat they cannot see.
      if (chat === undefined || !chat.admins.includes(caller)) return notFound();
      if (request.method === 'DELETE') {
        data.chats.splice(data.chats.indexOf(chat), 1);
        return new Response(null, { status: 204 });
      }
      if (request.method === 'PATCH') {
        const before = { name: chat.name, participants: [...chat.participants] };
        if (typeof body['name'] === 'string') chat.name = cleanText(body['name']);
        if (typeof body['description'] === 'string') chat.description = cleanText(body['description']);
        // A removed participant loses admin rights with it; a promoted user joins the chat.
        const participants = applyRelationPatch(chat.participants, body, 'participants');
        const removed = new Set(chat.participants.filter((member) => !participants.includes(member)));
        chat.admins = applyRelationPatch(chat.admins, body, 'admins').filter((admin) => !removed.has(admin));
        const joined = [...new Set([...participants, ...chat.admins])].filter((member) => !chat.participants.includes(member));
        chat.participants = [...new Set([...participants, ...chat.admins])];
        // New participants start reading at the newest message, as on the server.
        for (const member of joined) chat.last_read = { ...chat.last_read, [member]: lastSeqOf(chat) };
        if (body['agent_permissions'] !== undefined) chat.agent_permissions = body['agent_permissions'] === null ? null : resolvedAgentPermissions(body['agent_permissions']);
        if (typeof body['auto_route_enabled'] === 'boolean') chat.auto_route_enabled = body['auto_route_enabled'];
        if (typeof body['auto_route_agent'] === 'string') chat.auto_route_agent = body['auto_route_agent'];
        chat.updated = now();
        announceUpdate(data, chat, caller, before);
        return json(200, chatJson(chat, expand, caller));
      }
      return null;
    }

    // messages
    const chatId = /chat\s*=\s*["']([^"']+)["']/.exec(filter)?.[1];
    const beforeSeq = /seq\s*<\s*(\d+)/.exec(filter)?.[1];
    const replyTo = /reply_to\s*=\s*["']([^"']*)["']/.exec(filter)?.[1];
    if (request.method === 'GET') {
      let items = data.messages.filter((message) => chatId === undefined || message.chat === chatId);
      items = items.filter((message) => data.chats.some((chat) => chat.id === message.chat && chat.participants.includes(caller)));
      if (beforeSeq !== undefined) items = items.filter((message) => message.seq < Number(beforeSeq));
      if (replyTo !== undefined) items = items.filter((message) => (message.reply_to ?? '') === replyTo);
      const descending = sort.startsWith('-');
      items = [...items].sort((a, b) => (descending ? b.seq - a.seq : a.seq - b.seq));
      const result = page(items, url);
      return json(200, { ...result, items: result.items.map((item) => messageJson(item, expand)) });
    }
    if (request.method === 'POST') {
      const target = String(body['chat'] ?? '');
      // Only a participant posts (PocketBase answers an unmet create rule with a bare 400).
      if (!data.chats.some((chat) => chat.id === target && chat.participants.includes(caller))) return errorResponse(400, 'Failed to create record.');
      const seq = data.messages.filter((message) => message.chat === target).length + 1;
      const field = 'encryptedContent' in body ? 'encryptedContent' : 'content';
      const content = String(body[field] ?? '').trim();
      if (content === '') return errorResponse(400, 'Failed to create record.', { [field]: { code: 'validation_required', message: 'Cannot be blank.' } });
      if (content.length > maxMessageLength) {
        return errorResponse(400, 'Failed to create record.', { [field]: { code: 'validation_max_text_constraint', message: `Must be less than ${maxMessageLength} character(s).` } });
      }
      // As on the server: the other types say where a message came from (a mail), and only the server sets them.
      const messageType = String(body['message_type'] ?? '');
      if (messageType !== '' && messageType !== 'regular') {
        return errorResponse(400, 'Failed to create record.', {
          message_type: { code: 'validation_invalid_value', message: "Only the server sets message_type; messages people post are 'regular'." },
        });
      }
      // A message of the same chat, standing; a reply to a reply joins its thread (as on the server).
      let original: FakeMessage | undefined;
      if (body['reply_to'] !== undefined && body['reply_to'] !== '') {
        const named = data.messages.find((message) => message.id === body['reply_to'] && message.chat === target && message.deleted_at === undefined);
        if (named === undefined) return errorResponse(400, 'Failed to create record.', { reply_to: { code: 'validation_invalid_value', message: replyToRefusedText } });
        original = data.messages.find((message) => message.id === (named.reply_to ?? named.id));
      }
      const message: FakeMessage = {
        id: nextRecordId('msg'),
        chat: target,
        author: caller,
        content,
        message_type: 'regular',
        seq,
        created: stamp(seq),
        ...(original === undefined ? {} : { reply_to: original.id }),
      };
      if (original !== undefined) original.replied_at = message.created;
      data.messages.push(message);
      // Posting reads the chat up to one's own message, as on the server.
      const posted = data.chats.find((chat) => chat.id === target);
      if (posted !== undefined) posted.last_read = { ...posted.last_read, [caller]: seq };
      return json(200, messageJson(message, expand));
    }
    // The author edits; the author or an admin of the chat deletes (the row stays, emptied); a
    // deleted message is gone for both. Anyone else gets the server's 404.
    const target = data.messages.find((message) => message.id === id && message.deleted_at === undefined);
    const chat = data.chats.find((candidate) => candidate.id === target?.chat && candidate.participants.includes(caller));
    if (target === undefined || chat === undefined) return notFound();
    // What the server wrote itself stays as written; a system line stays altogether.
    if (target.message_type === 'system' || (target.message_type === 'file' && request.method === 'PATCH')) return notFound();
    if (request.method === 'DELETE') {
      if (target.author !== caller && !chat.admins.includes(caller)) return notFound();
      target.deleted_at = now();
      return new Response(null, { status: 204 });
    }
    if (request.method === 'PATCH') {
      if (target.author !== caller) return notFound();
      const field = 'encryptedContent' in body ? 'encryptedContent' : 'content';
      if (typeof body[field] === 'string') {
        const content = body[field].trim();
        if (content === '') return errorResponse(400, 'Failed to update record.', { [field]: { code: 'validation_required', message: 'Cannot be blank.' } });
        target.content = content;
        target.edited_at = now();
      }
      return json(200, messageJson(target, expand));
    }
    return null;
  };
}

/** Names and descriptions as the server stores them: the shared rule strips invisible controls, then trims. */
function cleanText(value: unknown): string {
  return stripUnsafeCharacters(typeof value === 'string' ? value : '').trim();
}

/** As the server reads and answers them: every key, each at its default unless set otherwise. */
function resolvedAgentPermissions(value: unknown): Required<AgentPermissions> {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return { confab_agents: record['confab_agents'] !== false, developer_agents: record['developer_agents'] === true, agents_may_read_files: record['agents_may_read_files'] === true };
}

/** The current time in PocketBase's format: what the server stamps on a created or changed record. */
function now(): string {
  return new Date().toISOString().replace('T', ' ');
}
