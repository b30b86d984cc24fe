import type { ChatRecord, MessageRecord } from '../types';

/*
 * The chats and messages collections of the fake HTTP server, in the PocketBase wire shape:
 * list (page, perPage, sort, expand, the few filters the client sends), view, create, update
 * with `field+` / `field-` modifiers, delete. Access: participants only, admins change.
 */

export interface FakeRecordsState {
  chats: ChatRecord[];
  messages: MessageRecord[];
}

export interface RecordsRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  userId: string | undefined;
  userRecord: (id: string) => Record<string, unknown> | undefined;
}

export type Answer = { status: number; body?: unknown };

const notFound: Answer = { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };
let counter = 0;

export function routeRecords(state: FakeRecordsState, request: RecordsRequest): Answer | null {
  const url = new URL(request.path, 'http://fake');
  const match = /^\/api\/collections\/(chats|messages)\/records(?:\/([^/]+))?$/.exec(url.pathname);
  if (match === null) return null;
  if (request.userId === undefined) return { status: 401, body: { status: 401, message: 'The request requires valid record authorization token.', data: {} } };
  const collection = match[1] as 'chats' | 'messages';
  const id = match[2];
  const visibleChats = state.chats.filter((chat) => chat.participants.includes(request.userId ?? ''));
  const expandFields = (url.searchParams.get('expand') ?? '').split(',').filter((field) => field !== '');

  if (collection === 'chats') {
    const present = (chat: ChatRecord) => withExpand(chat, expandFields, request.userRecord);
    if (request.method === 'GET' && id === undefined) return list(url, [...visibleChats].sort(compareBy(url.searchParams.get('sort'))), present);
    if (request.method === 'POST' && id === undefined) {
      const now = timestamp();
      const chat: ChatRecord = {
        id: newId('chat'),
        collectionId: 'chats',
        collectionName: 'chats',
        name: String(request.body['name'] ?? '').trim(),
        description: String(request.body['description'] ?? ''),
        creator: request.userId,
        participants: [request.userId],
        admins: [request.userId],
        email_address: 'chat-abc123',
        created: now,
        updated: now,
      };
      if (chat.name === '') return { status: 400, body: { status: 400, message: 'Failed to create record.', data: { name: { code: 'validation_required', message: 'Cannot be blank.' } } } };
      state.chats.push(chat);
      return { status: 200, body: present(chat) };
    }
    const chat = visibleChats.find((candidate) => candidate.id === id);
    if (chat === undefined) return notFound;
    if (request.method === 'GET') return { status: 200, body: present(chat) };
    if (!chat.admins.includes(request.userId)) return notFound;
    if (request.method === 'DELETE') {
      state.chats = state.chats.filter((candidate) => candidate !== chat);
      state.messages = state.messages.filter((message) => message.chat !== chat.id);
      return { status: 204 };
    }
    if (request.method === 'PATCH') {
      applyPatch(chat, request.body);
      chat.updated = timestamp();
      return { status: 200, body: present(chat) };
    }
    return notFound;
  }

  const chatIds = new Set(visibleChats.map((chat) => chat.id));
  const visibleMessages = state.messages.filter((message) => chatIds.has(message.chat));
  if (request.method === 'GET' && id === undefined) {
    const filtered = visibleMessages.filter(parseFilter(url.searchParams.get('filter') ?? ''));
    const present = (message: MessageRecord) => withExpand(message, expandFields, request.userRecord);
    return list(url, filtered.sort(compareBy(url.searchParams.get('sort'))), present);
  }
  return notFound;
}

export function list<Item>(url: URL, items: Item[], present: (item: Item) => unknown): Answer {
  const page = Number(url.searchParams.get('page') ?? '1');
  const perPage = Number(url.searchParams.get('perPage') ?? '30');
  const skipTotal = url.searchParams.get('skipTotal') === 'true';
  const slice = items.slice((page - 1) * perPage, page * perPage).map(present);
  return {
    status: 200,
    body: {
      page,
      perPage,
      totalItems: skipTotal ? -1 : items.length,
      totalPages: skipTotal ? -1 : Math.ceil(items.length / perPage),
      items: slice,
    },
  };
}

function applyPatch(chat: ChatRecord, body: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(body)) {
    const modifier = /^(participants|admins)([+-])$/.exec(key);
    if (modifier !== null) {
      const field = modifier[1] as 'participants' | 'admins';
      const ids = Array.isArray(value) ? value.map(String) : [String(value)];
      chat[field] = modifier[2] === '+' ? [...new Set([...chat[field], ...ids])] : chat[field].filter((id) => !ids.includes(id));
      if (field === 'participants' && modifier[2] === '-') chat.admins = chat.admins.filter((id) => !ids.includes(id));
      continue;
    }
    (chat as unknown as Record<string, unknown>)[key] = value;
  }
}

/** `chat = "x"`, `seq < n`, `seq > n`, `seq <= n` joined by &&: what the client sends. */
function parseFilter(filter: string): (message: MessageRecord) => boolean {
  const conditions = filter.split('&&').map((part) => part.trim()).filter((part) => part !== '');
  const tests = conditions.map((condition) => {
    const chat = /^chat\s*=\s*(['"])(.*)\1$/.exec(condition);
    if (chat !== null) return (message: MessageRecord) => message.chat === chat[2];
    const seq = /^seq\s*(<=|>=|<|>)\s*(\d+)$/.exec(condition);
    if (seq !== null) {
      const bound = Number(seq[2]);
      const operator = seq[1];
      return (message: MessageRecord) => {
        const value = message.seq ?? 0;
        return operator === '<' ? value < bound : operator === '>' ? value > bound : operator === '<=' ? value <= bound : value >= bound;
      };
    }
    throw new Error(`fake server: unsupported filter ${condition}`);
  });
  return (message) => tests.every((test) => test(message));
}

export function compareBy(sort: string | null): (left: unknown, right: unknown) => number {
  if (sort === null || sort === '') return () => 0;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  return (left, right) => {
    const a = (left as Record<string, string | number>)[field] ?? '';
    const b = (right as Record<string, string | number>)[field] ?? '';
    const order = a < b ? -1 : a > b ? 1 : 0;
    return descending ? -order : order;
  };
}

export function withExpand<Item extends object>(item: Item, fields: string[], userRecord: RecordsRequest['userRecord']): Item {
  if (fields.length === 0) return item;
  const expand: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (item as Record<string, unknown>)[field];
    if (Array.isArray(value)) expand[field] = value.map((id) => userRecord(String(id))).filter((record) => record !== undefined);
    else if (typeof value === 'string' && userRecord(value) !== undefined) expand[field] = userRecord(value);
  }
  return { ...item, expand };
}

export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}${String(counter).padStart(15 - prefix.length, '0')}`;
}

/** PocketBase's datetime format; strictly increasing so -updated orders are stable in tests. */
export function timestamp(): string {
  counter += 1;
  return new Date(Date.UTC(2026, 1, 1) + counter * 1000).toISOString().replace('T', ' ');
}
