import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatFile } from '../files/chatFile';
import type { PendingInvitation } from '../protocol';
import type { ChatRecord, MessageRecord } from '../types';
import { createFakeAgentsState, routeAgents } from './fakeAgents';
import type { FakeAgentsState } from './fakeAgents';
import { addFileRecord, createFakeFilesState, routeFiles } from './fakeFiles';
import type { FakeFilesState, UploadedPart } from './fakeFiles';
import { routeRecords } from './fakeRecords';
import type { FakeRecordsState } from './fakeRecords';

/*
 * A tiny HTTP server answering the few routes ConfabClient uses, in the PocketBase wire shape
 * (see shared/reference/pocketbase-wire.md), so tests run the real SDK over real HTTP.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or for multipart/form-data the fields with each file part as an UploadedPart. */
  body: unknown;
}

export interface FakeUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  users: FakeUser[];
  /** Override the answer of GET /api/config: a status and body, or 'default'. */
  configAnswer: { status: number; body: unknown } | 'default';
  /** The chats and messages collections (fakeRecords.ts); tests seed and inspect them. */
  records: FakeRecordsState;
  /** The files collection and file tokens (fakeFiles.ts). */
  files: FakeFilesState;
  /**
   * What GET /api/my-invitations answers, whoever asks; accept and decline take an entry out
   * (accept answers its chat id). No rules: who may see or accept which is tested on the real
   * server (packages/server/test/invitations.test.ts).
   */
  pendingInvitations: PendingInvitation[];
  /** The agent routes' bookkeeping (fakeAgents.ts). */
  agents: FakeAgentsState;
  /** Stores a file record in a chat, named the way the server names stored files. */
  addFile(input: Partial<ChatFile> & { chat: string; uploaded_by: string; original_name: string }): ChatFile;
  /** Stores a message with the next seq of its chat. */
  addMessage(chatId: string, authorId: string, content: string): MessageRecord;
  /** Stores a chat with these members (the first participant is creator and admin by default). */
  addChat(chat: Partial<ChatRecord> & { id: string; participants: string[] }): ChatRecord;
  issueToken(userId: string, lifetimeSeconds?: number): string;
  close(): Promise<void>;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

export async function startFakeServer(): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const users: FakeUser[] = [{ id: 'alice0000000001', username: 'alice', email: 'alice@example.com', password: 'correct-horse' }];
  const validTokens = new Map<string, string>();
  const state: Pick<FakeServer, 'configAnswer' | 'records' | 'files' | 'pendingInvitations' | 'agents'> = {
    configAnswer: 'default',
    records: { chats: [], messages: [] },
    files: createFakeFilesState(),
    pendingInvitations: [],
    agents: createFakeAgentsState(),
  };
  let tokenCounter = 0;

  const issueToken = (userId: string, lifetimeSeconds = 3600): string => {
    tokenCounter += 1;
    const payload = { id: userId, type: 'auth', collectionId: '_pb_users_auth_', refreshable: true, exp: Math.floor(Date.now() / 1000) + lifetimeSeconds, n: tokenCounter };
    const token = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature${tokenCounter}`;
    validTokens.set(token, userId);
    return token;
  };

  const recordOf = (user: FakeUser) => ({
    id: user.id,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    username: user.username,
    email: user.email,
    name: '',
    type: 'user',
    soft_registered: false,
    signup_completed: true,
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
  });

  const userRecord = (id: string) => {
    const user = users.find((candidate) => candidate.id === id);
    return user === undefined ? undefined : recordOf(user);
  };

  const route = (request: RecordedRequest): Answer => {
    const path = request.path.split('?')[0];
    const body = (request.body ?? {}) as Record<string, string>;
    const userId = validTokens.get(String(request.headers['authorization'] ?? '').replace(/^Bearer /, ''));
    const recordsRequest = { method: request.method, path: request.path, body, userId, userRecord };
    const recordsAnswer =
      routeRecords(state.records, recordsRequest) ?? routeFiles(state.files, state.records.chats, recordsRequest) ?? routeAgents(state.agents, recordsRequest);
    if (recordsAnswer !== null) return recordsAnswer;
    if (request.method === 'GET' && path === '/api/config') {
      if (state.configAnswer !== 'default') return state.configAnswer;
      return { status: 200, body: { api_base_url: 'https://api.confab.test', websocket_url: 'wss://api.confab.test/api/ws', environment: 'test', public_domain: 'confab.test' } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/auth-with-password') {
      const user = users.find((candidate) => candidate.username === body['identity'] || candidate.email === body['identity'] || candidate.id === body['identity']);
      if (user === undefined || user.password !== body['password']) {
        return { status: 400, body: { status: 400, message: 'Failed to authenticate.', data: {} } };
      }
      return { status: 200, body: { token: issueToken(user.id), record: recordOf(user) } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/auth-refresh') {
      const userId = validTokens.get(String(request.headers['authorization'] ?? '').replace(/^Bearer /, ''));
      const user = users.find((candidate) => candidate.id === userId);
      if (user === undefined) return { status: 401, body: { status: 401, message: 'Missing or invalid authentication.', data: {} } };
      return { status: 200, body: { token: issueToken(user.id), record: recordOf(user) } };
    }
    if (request.method === 'POST' && path === '/api/collections/users/records') {
      const data: Record<string, { code: string; message: string }> = {};
      if (users.some((user) => user.username === body['username'])) {
        data['username'] = { code: 'validation_not_unique', message: 'The username is invalid or already in use.' };
      }
      if (body['password'] !== body['passwordConfirm']) {
        data['passwordConfirm'] = { code: 'validation_values_mismatch', message: "Values don't match." };
      }
      if (Object.keys(data).length > 0) return { status: 400, body: { status: 400, message: 'Failed to create record.', data } };
      const user: FakeUser = {
        id: `user${String(users.length).padStart(11, '0')}`,
        username: String(body['username']),
        email: String(body['email']),
        password: String(body['password']),
      };
      users.push(user);
      return { status: 200, body: recordOf(user) };
    }
    if (request.method === 'PATCH' && path?.startsWith('/api/collections/users/records/')) {
      const id = path.slice('/api/collections/users/records/'.length);
      const user = users.find((candidate) => candidate.id === id);
      if (user === undefined || userId !== id) return { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };
      if (typeof body['username'] === 'string') user.username = body['username'];
      return {
        status: 200,
        body: { ...recordOf(user), openai_api_key_set: body['openai_api_key'] !== undefined, gemini_api_key_set: body['gemini_api_key'] !== undefined },
      };
    }
    if (request.method === 'POST' && path === '/api/collections/users/request-password-reset') return { status: 204 };
    if (request.method === 'POST' && path === '/api/collections/users/confirm-password-reset') {
      if (body['token'] === 'valid-reset-token') return { status: 204 };
      return {
        status: 400,
        body: { status: 400, message: 'Failed to confirm password reset.', data: { token: { code: 'validation_invalid_token', message: 'Invalid or expired token.' } } },
      };
    }
    if (request.method === 'GET' && path === '/api/invitation/valid-token') {
      return { status: 200, body: { id: 'inv1', chat_id: 'chat1', chat: { id: 'chat1', name: 'Launch' }, email: '', link_type: 'shareable', user_exists: false, expires_at: '2026-01-02 00:00:00.000Z' } };
    }
    if (request.method === 'GET' && path === '/api/invitation/broken') {
      return { status: 500, body: { status: 500, message: 'Something broke.', data: {} } };
    }
    if (request.method === 'GET' && path?.startsWith('/api/accept-invitation/')) {
      const token = path.slice('/api/accept-invitation/'.length);
      if (userId === undefined) return { status: 401, body: { status: 401, message: 'Sign in first.', data: {} } };
      if (token === 'valid-token') return { status: 302, headers: { Location: '/chat/chat1' } };
      if (token === 'no-location') return { status: 302 };
      if (token === 'ok-json') return { status: 200, body: { ok: true } };
      return { status: 400, body: { status: 400, message: 'Invalid or expired invitation', data: {} } };
    }
    if (request.method === 'POST' && path === '/api/accept-invitation/valid-token') {
      if (body['display_name'] !== undefined) return { status: 200, body: { success: true, temp_password: 'temp-pass', username: 'user_abcdefghij', chat_id: 'chat1' } };
      return { status: 200, body: { success: true, username: body['username'], chat_id: 'chat1' } };
    }
    if (request.method === 'POST' && path === '/api/invite-to-chat') {
      if (body['username'] === 'ghost') return { status: 404, body: { status: 404, message: 'User not found', data: {} } };
      if (body['email'] !== undefined) return { status: 200, body: { success: true, status: 'invited', chat_id: body['chat_id'] } };
      return { status: 200, body: { success: true, status: 'added', chat_id: body['chat_id'], user: { id: 'u2', username: body['username'], name: '' } } };
    }
    if (request.method === 'POST' && path?.startsWith('/api/create-share-link/')) {
      return { status: 200, body: { share_url: `http://confab.test/join/tok-${path.slice('/api/create-share-link/'.length)}`, expires_at: 'later', max_uses: body['max_uses'] } };
    }
    if (request.method === 'GET' && path?.startsWith('/api/search-users/')) {
      return { status: 200, body: { users: [{ id: 'u2', username: 'bob', name: 'Bob' }] } };
    }
    if (request.method === 'POST' && path === '/api/complete-account') {
      if (body['username'] === 'taken') {
        return { status: 400, body: { status: 400, message: 'Failed.', data: { username: { code: 'validation_not_unique', message: 'Username already taken.' } } } };
      }
      return { status: 200, body: { message: 'Account completed' } };
    }
    if (path === '/api/my-invitations' || path?.startsWith('/api/my-invitations/') || /^\/api\/chats\/[^/]+\/leave$/.test(path ?? '')) {
      if (userId === undefined) return { status: 401, body: { status: 401, message: 'Missing or invalid authentication.', data: {} } };
    }
    if (request.method === 'GET' && path === '/api/my-invitations') return { status: 200, body: { invitations: state.pendingInvitations } };
    const mine = /^\/api\/my-invitations\/([^/]+)\/(accept|decline)$/.exec(path ?? '');
    if (request.method === 'POST' && mine !== null) {
      const invitation = state.pendingInvitations.find((candidate) => candidate.id === mine[1]);
      if (invitation === undefined) return { status: 404, body: { status: 404, message: 'Invitation not found', data: {} } };
      state.pendingInvitations = state.pendingInvitations.filter((candidate) => candidate !== invitation);
      return mine[2] === 'accept' ? { status: 200, body: { chat_id: invitation.chat.id } } : { status: 204 };
    }
    const leaving = /^\/api\/chats\/([^/]+)\/leave$/.exec(path ?? '');
    if (request.method === 'POST' && leaving !== null) {
      // Only membership: the refusals (last admin, only participant) are the real server's rules.
      const chat = state.records.chats.find((candidate) => candidate.id === leaving[1] && candidate.participants.includes(userId ?? ''));
      if (chat === undefined) return { status: 404, body: { status: 404, message: 'Chat not found', data: {} } };
      chat.participants = chat.participants.filter((id) => id !== userId);
      chat.admins = chat.admins.filter((id) => id !== userId);
      return { status: 204 };
    }
    if (request.method === 'GET' && path === '/api/invitation/missing') {
      return { status: 404, body: { status: 404, message: 'Invalid or expired invitation', data: {} } };
    }
    if (request.method === 'GET' && path === '/api/echo-auth') {
      return { status: 200, body: { authorization: request.headers['authorization'] ?? null } };
    }
    return { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };
  };

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: await readBody(Buffer.concat(chunks), incoming.headers['content-type'] ?? ''),
      };
      requests.push(request);
      let answer: Answer;
      try {
        answer = route(request);
      } catch (error) {
        // A 500 fails the test with a visible reason instead of hanging the request.
        answer = { status: 500, body: { status: 500, message: String(error), data: {} } };
      }
      if (answer.body === undefined) {
        outgoing.writeHead(answer.status, answer.headers ?? {}).end();
        return;
      }
      outgoing.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const addMessage = (chatId: string, authorId: string, content: string): MessageRecord => {
    const seq = state.records.messages.filter((message) => message.chat === chatId).length + 1;
    const created = new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString().replace('T', ' ');
    const message: MessageRecord = {
      id: `m${chatId.slice(0, 6)}${String(seq).padStart(8, '0')}`,
      collectionId: 'messages',
      collectionName: 'messages',
      chat: chatId,
      author: authorId,
      content,
      message_type: 'regular',
      seq,
      client_id: '',
      created,
      updated: created,
    };
    state.records.messages.push(message);
    return message;
  };

  const addChat = (chat: Partial<ChatRecord> & { id: string; participants: string[] }): ChatRecord => {
    const creator = chat.participants[0] ?? '';
    const record: ChatRecord = {
      collectionId: 'chats',
      collectionName: 'chats',
      name: chat.id,
      description: '',
      creator,
      admins: [creator],
      created: '2026-01-01 00:00:00.000Z',
      updated: '2026-01-01 00:00:00.000Z',
      ...chat,
    };
    state.records.chats.push(record);
    return record;
  };

  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    addMessage,
    addChat,
    addFile: (input: Partial<ChatFile> & { chat: string; uploaded_by: string; original_name: string }) => addFileRecord(state.files, input),
    requests,
    users,
    issueToken,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}

/** JSON, or multipart/form-data read with the platform's own parser (fields as text, files as UploadedPart). */
async function readBody(raw: Buffer, contentType: string): Promise<unknown> {
  if (raw.length === 0) return undefined;
  if (!contentType.startsWith('multipart/form-data')) return JSON.parse(raw.toString('utf8'));
  const form = await new Response(new Uint8Array(raw), { headers: { 'Content-Type': contentType } }).formData();
  const fields: Record<string, string | UploadedPart> = {};
  for (const [name, value] of form.entries()) {
    fields[name] = typeof value === 'string' ? value : { name: value.name, size: value.size, type: value.type, text: await value.text() };
  }
  return fields;
}

/** base64 without padding or URL-unsafe characters, as the SDK's atob-based decoder reads it. */
function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64').replace(/=+$/, '');
}
