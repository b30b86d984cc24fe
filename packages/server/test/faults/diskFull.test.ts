/**
 * Fault matrix, disk full (docs/OPERATIONS.md): the data dir of a real server (SQLite) on an 8 MB
 * tmpfs that a ballast file fills to the last byte. Uploads and sends fail with a clear 507, no
 * partial file stays behind, the database stays intact with every acknowledged message, and the
 * server recovers by itself once the ballast is removed.
 *
 * A real full file system, not an injected error: mounting needs root (or CAP_SYS_ADMIN), so
 * where that is not allowed the suite is skipped with a warning.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, rmdirSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, registerUser, type RegisteredUser } from '../support/fixtures';
import { rawRequest } from '../support/http';
import { startTestServer, type TestServer } from '../support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from '../support/wsClient';

const outOfStorage = 'The server is out of storage space. Please try again later.';

/** An 8 MB tmpfs at a fresh folder, or undefined where this process may not mount one. */
function mountSmallDisk(): string | undefined {
  const folder = mkdtempSync(join(tmpdir(), 'confab-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', folder], { stdio: 'pipe' });
    return folder;
  } catch (error) {
    rmdirSync(folder);
    console.warn(`Cannot mount a tmpfs here (${String(error).split('\n')[0]}): skipping the disk-full fault test`);
    return undefined;
  }
}

/** Writes a file until the file system refuses another byte; answers its path. */
function fillDisk(folder: string): string {
  const path = join(folder, 'ballast');
  const descriptor = openSync(path, 'w');
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 7);
      try {
        for (;;) if (writeSync(descriptor, chunk) < size) break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(descriptor);
  }
  return path;
}

/** Every file under the files folder (partial uploads in .incoming included), relative, sorted. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

const disk = mountSmallDisk();

describe.skipIf(disk === undefined)('disk full (SQLite and files on an 8 MB tmpfs)', () => {
  let testServer: TestServer;
  let ann: RegisteredUser;
  let chatId: string;
  let socket: TestSocket;
  const acknowledged: string[] = [];

  async function upload(name: string, bytes: number) {
    const form = new FormData();
    form.append('chat', chatId);
    form.append('file', new File([Buffer.alloc(bytes, 'a')], name, { type: 'text/plain' }));
    const response = await fetch(`${testServer.url}/api/collections/files/records`, { method: 'POST', headers: { authorization: ann.pb.authStore.token }, body: form });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  function send(content: string) {
    return rawRequest(testServer.url, 'POST', '/api/collections/messages/records', { token: ann.pb.authStore.token, body: { chat: chatId, encryptedContent: content, message_type: 'regular' } });
  }

  function integrity(): string {
    const connection = new BetterSqlite3(join(testServer.dataDir, 'confab.db'), { readonly: true });
    try {
      return String(connection.pragma('integrity_check', { simple: true }));
    } finally {
      connection.close();
    }
  }

  beforeAll(async () => {
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { dataDir: disk });
    ann = await registerUser(testServer, { name: 'Ann' });
    chatId = (await createChat(ann, { name: 'Full disk' })).id;
    socket = await authenticatedSocket(testServer.url, ann.pb.authStore.token);
    await socket.join(chatId);
    for (let index = 0; index < 5; index += 1) {
      const sent = await send(`before the disk filled up ${index}`);
      expect(sent.status).toBe(200);
      acknowledged.push(String((sent.body as { id: string }).id));
    }
  });

  afterAll(async () => {
    await socket?.close();
    await testServer?.close();
    if (disk !== undefined) {
      execFileSync('umount', [disk], { stdio: 'pipe' });
      rmSync(disk, { recursive: true, force: true });
    }
  });

  it('refuses uploads and sends with 507, keeps no partial file and no half-written row, and recovers once space is freed', async () => {
    const files = join(testServer.dataDir, 'files');
    const ballast = fillDisk(testServer.dataDir);
    const filesBefore = filesUnder(files);

    const refused = await upload('notes.txt', 512 * 1024);
    expect(refused).toEqual({ status: 507, body: { status: 507, message: outOfStorage, data: {} } });
    expect(filesUnder(files)).toEqual(filesBefore);
    // Room for part of a file: the upload stops half-written, and its partial file is removed too.
    truncateSync(ballast, statSync(ballast).size - 256 * 1024);
    const halfWritten = await upload('notes.txt', 512 * 1024);
    expect(halfWritten.status).toBe(507);
    expect(filesUnder(files)).toEqual(filesBefore);

    // The WAL may still have room for a few commits: send until one needs a page the disk has not got.
    let failure: Awaited<ReturnType<typeof send>> | undefined;
    for (let attempt = 0; attempt < 400 && failure === undefined; attempt += 1) {
      const sent = await send(`while full ${attempt} ${'x'.repeat(4000)}`);
      if (sent.status === 200) acknowledged.push(String((sent.body as { id: string }).id));
      else failure = sent;
    }
    expect(failure?.status, 'a send failed once the disk was full').toBe(507);
    expect(failure?.body).toEqual({ status: 507, message: outOfStorage, data: {} });

    // A socket send is refused with the same text, naming the message (its client_id).
    socket.send({ type: 'send_message', chat_id: chatId, content: 'over the socket, disk full', client_id: 'full-1' });
    const socketRefusal = await socket.nextOfType('error');
    expect(socketRefusal).toMatchObject({ code: 'server_error', message: outOfStorage, ref: 'full-1' });

    // Still serving, the database intact, every acknowledged message in it and nothing else.
    expect((await rawRequest(testServer.url, 'GET', '/api/health')).status).toBe(200);
    expect(integrity()).toBe('ok');
    const stored = await testServer.probe.rows(`select id from messages where chat = $1`, [chatId]);
    expect(stored.map((row) => row['id']).sort()).toEqual([...acknowledged].sort());

    // Space freed: the next upload and sends succeed without a restart.
    rmSync(ballast);
    const accepted = await upload('notes.txt', 512 * 1024);
    expect(accepted.status).toBe(200);
    expect(filesUnder(files)).toEqual([...filesBefore, `${chatId}/${String(accepted.body['id'])}/${String(accepted.body['file'])}`].sort());
    const after = await send('after space was freed');
    expect(after.status).toBe(200);
    acknowledged.push(String((after.body as { id: string }).id));
    socket.send({ type: 'send_message', chat_id: chatId, content: 'over the socket, space freed', client_id: 'freed-1' });
    for (const content of ['after space was freed', 'over the socket, space freed']) {
      await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).content === content);
    }
    expect(integrity()).toBe('ok');
    expect(await testServer.probe.count('messages')).toBeGreaterThanOrEqual(acknowledged.length + 1);
  });
});
