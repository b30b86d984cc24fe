import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatFile } from '../files/chatFile';
import { createFakeBackend, fakeToken } from './fakeBackend';
import type { FakeBackend, FakeChat, FakeMessage, FakeUser } from './fakeBackend';
import type { FakeFileInput } from './fakeFiles';

/*
 * The one fake backend (fakeBackend.ts) served over real HTTP on 127.0.0.1, for the client's node
 * tests that run the SDK over a socket and read the requests it sent. It answers nothing itself:
 * every route is the fake backend's (or a test's `backend.override(...)`), so these tests and the
 * chat-ui tests and stories talk to the same fake, which the contract suite holds to the real
 * server (backendContract.ts).
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON, or for multipart/form-data the fields with each file part as an UploadedPart. */
  body: unknown;
}

/** A multipart file part as the server read it. */
export interface UploadedPart {
  name: string;
  size: number;
  type: string;
  text: string;
}

export interface FakeServer {
  url: string;
  /** The fake backend behind the socket: its data, `override(...)` and `hold()`. */
  backend: FakeBackend;
  requests: RecordedRequest[];
  users: FakeUser[];
  /** Override the answer of GET /api/config: a status and body, or 'default'. */
  configAnswer: { status: number; body: unknown } | 'default';
  /** Stores a chat (name defaults to its id; the first participant is creator and admin). */
  addChat(chat: Partial<FakeChat> & { participants: string[] }): FakeChat;
  /** Stores a message with the next seq of its chat. */
  addMessage(chatId: string, authorId: string, content: string): FakeMessage;
  addFile(input: FakeFileInput): ChatFile;
  issueToken(userId: string, lifetimeSeconds?: number): string;
  close(): Promise<void>;
}

/** The user the client tests sign in as. */
export const alice = { id: 'alice0000000001', username: 'alice', email: 'alice@example.com', name: '', password: 'correct-horse' };

export async function startFakeServer(): Promise<FakeServer> {
  const backend = createFakeBackend({ users: [{ ...alice }] });
  const requests: RecordedRequest[] = [];

  const answer = async (incoming: IncomingMessage, raw: Buffer, url: string): Promise<Response> => {
    const contentType = incoming.headers['content-type'] ?? '';
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (value !== undefined && name !== 'content-length' && !(name === 'content-type' && contentType.startsWith('multipart/'))) headers.set(name, String(value));
    }
    const method = incoming.method ?? 'GET';
    if (method === 'GET' && new URL(url).pathname === '/api/config' && fakeServer.configAnswer !== 'default') {
      const { status, body } = fakeServer.configAnswer;
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }
    let body: BodyInit | undefined;
    if (raw.length > 0) {
      body = contentType.startsWith('multipart/form-data')
        ? await new Response(new Uint8Array(raw), { headers: { 'Content-Type': contentType } }).formData()
        : raw.toString('utf8');
    }
    return backend.fetch(url, { method, headers, body });
  };

  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const path = incoming.url ?? '/';
      requests.push({ method: incoming.method ?? 'GET', path, headers: incoming.headers, body: await readBody(raw, incoming.headers['content-type'] ?? '') });
      let response: Response;
      try {
        response = await answer(incoming, raw, `${fakeServer.url}${path}`);
      } catch (error) {
        // A 500 fails the test with a visible reason instead of hanging the request.
        response = new Response(JSON.stringify({ status: 500, message: String(error), data: {} }), { status: 500 });
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      outgoing.writeHead(response.status, Object.fromEntries(response.headers.entries())).end(bytes.length > 0 ? bytes : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fakeServer: FakeServer = {
    url: `http://127.0.0.1:${port}`,
    backend,
    requests,
    users: backend.users,
    configAnswer: 'default',
    addChat: (chat) => backend.addChat({ name: chat.id ?? 'Chat', ...chat }),
    addMessage: (chatId, authorId, content) => {
      const [message] = backend.addMessages(chatId, 1, [authorId], () => content);
      if (message === undefined) throw new Error('fake server: no message added');
      return message;
    },
    addFile: (input) => backend.addFile(input),
    issueToken: (userId, lifetimeSeconds) => fakeToken(userId, lifetimeSeconds),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fakeServer;
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
