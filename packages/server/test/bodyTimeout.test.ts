/**
 * Security review A: a request whose body stops arriving loses its connection after
 * `bodyTimeoutMs`, and a stalled upload leaves nothing in `files/.incoming`; slow but steady
 * bodies, idle keep-alive connections and WebSockets are not cut. Raw `node:net` sockets, so the
 * test controls every byte and its timing. Runs on SQLite and on PostgreSQL.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnvironment, resolveConfig, type ServerOptions } from '../src/config';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket } from './support/wsClient';

const variants = await databaseVariants();
const bodyTimeoutMs = 500;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A raw connection that records what the server sent and when it closed the connection. */
interface RawConnection {
  socket: Socket;
  received(): string;
  /** Milliseconds from `openedAt` to the close, or undefined when still open after `waitMs`. */
  closedWithin(waitMs: number): Promise<number | undefined>;
  openedAt: number;
}

async function openConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  let closedAt: number | undefined;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedAt = Date.now();
      resolve();
    }),
  );
  const connection: RawConnection = {
    socket,
    openedAt: Date.now(),
    received: () => Buffer.concat(chunks).toString('utf8'),
    async closedWithin(waitMs) {
      await Promise.race([closed, sleep(waitMs)]);
      return closedAt === undefined ? undefined : closedAt - connection.openedAt;
    },
  };
  return connection;
}

function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Resolves once the server's answer to one request (with a Content-Length) has arrived. */
async function waitForAnswer(connection: RawConnection, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = connection.received();
    const headEnd = text.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
    if (headEnd >= 0 && length !== undefined && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length)) return text;
    if (Date.now() > deadline) throw new Error(`no complete answer within ${timeoutMs} ms: ${JSON.stringify(text.slice(0, 200))}`);
    await sleep(20);
  }
}

describe('body timeout configuration', () => {
  it('defaults to 30 s and reads CONFAB_BODY_TIMEOUT_SECONDS', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-config-'));
    const resolved = (options: ServerOptions) => resolveConfig({ ...options, dataDir, secret: 'test' }).bodyTimeoutMs;
    try {
      expect(resolved({})).toBe(30_000);
      expect(resolved({ bodyTimeoutMs: 1_500 })).toBe(1_500);
      expect(optionsFromEnvironment([], { CONFAB_BODY_TIMEOUT_SECONDS: '5' }).bodyTimeoutMs).toBe(5_000);
      expect(optionsFromEnvironment([], { CONFAB_BODY_TIMEOUT_SECONDS: '0.5' }).bodyTimeoutMs).toBe(500);
      expect(optionsFromEnvironment([], {}).bodyTimeoutMs).toBeUndefined();
      expect(resolved(optionsFromEnvironment([], { CONFAB_BODY_TIMEOUT_SECONDS: 'soon' }))).toBe(30_000);
      expect(resolved(optionsFromEnvironment([], { CONFAB_BODY_TIMEOUT_SECONDS: '0' }))).toBe(30_000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.each(variants)('body timeout ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let chatId: string;
  const incoming = () => join(testServer.dataDir, 'files', '.incoming');
  const incomingLeft = () => (existsSync(incoming()) ? readdirSync(incoming()) : []);
  /** Files under `.incoming` this process holds open (Linux; elsewhere nothing is checked). */
  const openIncomingFiles = () => {
    if (!existsSync('/proc/self/fd')) return [];
    return readdirSync('/proc/self/fd').flatMap((descriptor) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${descriptor}`);
        return target.startsWith(incoming()) ? [target] : [];
      } catch {
        return [];
      }
    });
  };

  beforeAll(async () => {
    testServer = await startTestServer(variant, { bodyTimeoutMs });
    alice = await registerUser(testServer, { name: 'Alice' });
    chatId = (await createChat(alice, { name: 'Uploads' })).id;
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('closes an unauthenticated login whose body stalls, within about the timeout', async () => {
    const connection = await openConnection(testServer.url);
    connection.socket.write(
      requestHead('POST', '/api/collections/users/auth-with-password', { 'Content-Type': 'application/json', 'Content-Length': 100 }) +
        '{"identity"',
    );
    const closedAfterMs = await connection.closedWithin(3_000);
    connection.socket.destroy();
    expect(closedAfterMs, 'the stalled connection stayed open').toBeDefined();
    expect(closedAfterMs).toBeGreaterThanOrEqual(bodyTimeoutMs - 50);
    expect(closedAfterMs).toBeLessThan(bodyTimeoutMs + 1_000);
    expect((await rawRequest(testServer.url, 'GET', '/api/health')).status).toBe(200);
  });

  it('closes a stalled upload and removes its partial file from files/.incoming', async () => {
    const boundary = '----confabstall';
    const head = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="chat"',
        '',
        chatId,
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="stalled.txt"',
        'Content-Type: text/plain',
        '',
        '',
      ].join('\r\n'),
    );
    const announcedFileBytes = 1024 * 1024;
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const connection = await openConnection(testServer.url);
    connection.socket.write(
      requestHead('POST', '/api/collections/files/records', {
        Authorization: `Bearer ${alice.pb.authStore.token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + announcedFileBytes + tail.length,
      }),
    );
    connection.socket.write(head);
    // Enough text for the content check to pass, so the server starts writing the file.
    connection.socket.write(Buffer.alloc(64 * 1024, 'a'));

    // The upload is staged while its body arrives...
    let staged: string[] = [];
    for (let attempt = 0; attempt < 20 && staged.length === 0; attempt += 1) {
      staged = incomingLeft();
      if (staged.length === 0) await sleep(20);
    }
    expect(staged.length, 'the upload was never staged').toBe(1);

    // ...and once it stalls, the connection is closed and the partial file removed.
    const closedAfterMs = await connection.closedWithin(3_000);
    connection.socket.destroy();
    expect(closedAfterMs, 'the stalled upload stayed open').toBeDefined();
    expect(closedAfterMs).toBeLessThan(bodyTimeoutMs + 1_500);
    for (let attempt = 0; attempt < 50 && incomingLeft().length > 0; attempt += 1) await sleep(20);
    expect(incomingLeft()).toEqual([]);
    // The server runs in this process: no descriptor is left open on the removed file either.
    for (let attempt = 0; attempt < 50 && openIncomingFiles().length > 0; attempt += 1) await sleep(20);
    expect(openIncomingFiles()).toEqual([]);
    expect(await testServer.probe.count('files')).toBe(0);
    expect((await rawRequest(testServer.url, 'GET', '/api/health')).status).toBe(200);
  });

  it('does not cut a slow but steady body, and the connection then idles as keep-alive', async () => {
    const body = JSON.stringify({ identity: 'n' });
    const connection = await openConnection(testServer.url);
    connection.socket.write(
      requestHead('POST', '/api/collections/users/auth-with-password', { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }),
    );
    // One byte every 200 ms: each gap is shorter than the timeout, the whole body far longer.
    const startedAt = Date.now();
    for (const character of body) {
      await sleep(200);
      expect(connection.socket.destroyed, 'the server cut a steady body').toBe(false);
      connection.socket.write(character);
    }
    expect(Date.now() - startedAt).toBeGreaterThan(bodyTimeoutMs * 3);
    const answer = await waitForAnswer(connection);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);

    // Idle for longer than the body timeout: a keep-alive connection is not a stalled body.
    await sleep(bodyTimeoutMs * 2.5);
    expect(connection.socket.destroyed).toBe(false);
    const before = connection.received().length;
    connection.socket.write(requestHead('GET', '/api/health', {}));
    const deadline = Date.now() + 5_000;
    while (!connection.received().slice(before).includes('\r\n\r\n') && Date.now() < deadline) await sleep(20);
    expect(connection.received().slice(before)).toMatch(/^HTTP\/1\.1 200 /);
    connection.socket.destroy();
  });

  it('does not cut a WebSocket that is quiet for longer than the body timeout', async () => {
    const socket = await authenticatedSocket(testServer.url, alice.pb.authStore.token);
    try {
      await sleep(bodyTimeoutMs * 3);
      const { joined } = await socket.join(chatId);
      expect(joined.type).toBe('joined');
    } finally {
      await socket.close();
    }
  });

  it('keeps serving after stalled bodies', async () => {
    const stalled = await Promise.all([openConnection(testServer.url), openConnection(testServer.url)]);
    for (const connection of stalled) {
      connection.socket.write(requestHead('POST', '/api/collections/users/records', { 'Content-Type': 'application/json', 'Content-Length': 50 }) + '{');
    }
    const closed = await Promise.all(stalled.map((connection) => connection.closedWithin(3_000)));
    for (const connection of stalled) connection.socket.destroy();
    expect(closed.every((milliseconds) => milliseconds !== undefined)).toBe(true);
    const list = await rawRequest(testServer.url, 'GET', '/api/collections/files/records', { token: `Bearer ${alice.pb.authStore.token}` });
    expect(list.status).toBe(200);
  });
});
