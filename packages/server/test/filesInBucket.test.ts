/**
 * Files in an S3-protocol bucket (s3rver here; S3, MinIO, R2 or Ceph in production): two
 * instances on one PostgreSQL, Redis and bucket serve each other's uploads (download with Range
 * and HEAD, inline preview, live site, @data); a bucket that is down is a clean 503 that loses
 * nothing; a 100 MB upload streams through (at most 64 MB more memory); `confab-server files
 * migrate --to s3` copies a data dir's files, and a second run
 * copies nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfabServer } from '../src/index';
import { startTestBucket, type TestBucket } from './support/bucket';
import { workspaceRoot } from './support/builtServer';
import { registerOn, signedInOn, startCluster, type Cluster } from './support/cluster';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { redisAvailable } from './support/redis';
import { startSourceServer, type SourceServer } from './support/sourceServer';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, messageOf, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();
const postgres = variants.find((variant) => variant.name === 'postgres');
const clusterRunnable = postgres !== undefined && (await redisAvailable());
const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

type Uploaded = { id: string; file: string; size: number };

async function uploadTo(url: string, user: RegisteredUser, chatId: string, name: string, content: string | Buffer): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  form.set('chat', chatId);
  form.set('file', new Blob([new Uint8Array(typeof content === 'string' ? Buffer.from(content) : content)]), name);
  const response = await fetch(`${url}/api/collections/files/records`, { method: 'POST', headers: { authorization: `Bearer ${user.pb.authStore.token}` }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function fileTokenOn(url: string, user: RegisteredUser): Promise<string> {
  return ((await rawRequest(url, 'POST', '/api/files/token', { token: `Bearer ${user.pb.authStore.token}` })).body as { token: string }).token;
}

describe.runIf(clusterRunnable)('two instances sharing one bucket', () => {
  let bucket: TestBucket;
  let cluster: Cluster | undefined;
  let a: ConfabServer;
  let b: ConfabServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    bucket = await startTestBucket();
    cluster = await startCluster(postgres!.baseUrl!, { secret: 'shared-secret-of-the-bucket-cluster', ...bucket.serverOptions('cluster/') });
    ({ a, b } = cluster);
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await cluster?.close();
    await bucket?.close();
  });

  const register = (server: ConfabServer) => registerOn(server);
  const on = signedInOn;

  it('serves an upload through A from B: download with Range and HEAD, preview, live site, @data; deleting removes the objects', async () => {
    const ann = await register(a);
    const bob = await register(b);
    const chat = await createChat(ann, { name: 'Shared files', participants: [bob.record.id] });
    const csv = 'month,amount\n2024-01-01,10\n2024-02-01,12.5\n';
    const sales = (await uploadTo(a.url, ann, chat.id, 'sales.csv', csv)).body as unknown as Uploaded;
    const paper = (await uploadTo(a.url, ann, chat.id, 'paper.pdf', pdfBytes)).body as unknown as Uploaded;
    const site = await uploadTo(a.url, ann, chat.id, 'index.html', '<!doctype html><html><body><h1>Shared site</h1></body></html>');
    expect(site.status).toBe(200);
    // Nothing of it is on A's disk but the (empty) staging folder: B could not have read it there.
    expect(readdirSync(join(a.dataDir, 'files')).filter((name) => name !== '.incoming')).toEqual([]);
    expect((await bucket.keys()).filter((key) => key.startsWith(`cluster/${chat.id}/`))).toHaveLength(3);

    // Download through B, by header, whole, by range, and HEAD.
    const token = `Bearer ${bob.pb.authStore.token}`;
    const path = `/api/files/files/${sales.id}/${sales.file}`;
    const whole = await rawRequest(b.url, 'GET', path, { token });
    expect(whole.status).toBe(200);
    expect(whole.text).toBe(csv);
    expect(whole.contentType).toBe('text/csv; charset=utf-8');
    const ranged = await fetch(`${b.url}${path}`, { headers: { authorization: token, range: 'bytes=6-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 6-11/${csv.length}`);
    expect(await ranged.text()).toBe(csv.slice(6, 12));
    const head = await fetch(`${b.url}${path}`, { method: 'HEAD', headers: { authorization: token } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(csv.length));
    expect(head.headers.get('x-content-type-options')).toBe('nosniff');

    // The files panel's preview: the PDF inline, by file token, through B.
    const preview = await fetch(`${b.url}/api/files/files/${paper.id}/${paper.file}?token=${await fileTokenOn(b.url, bob)}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(preview.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await preview.arrayBuffer()).equals(pdfBytes)).toBe(true);

    // The live site through B.
    const start = await fetch(`${b.url}/live/${chat.id}/?token=${await fileTokenOn(b.url, bob)}`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const page = await fetch(new URL(start.headers.get('location') ?? '', b.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Shared site');

    // @data on B (the instance that stores Bob's message runs the mention) reads A's upload.
    const socket = await authenticatedSocket(b.url, bob.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    await postMessage(on(b, bob), chat.id, '@data SELECT sum(amount) AS total FROM sales');
    const answer = messageOf(await socket.next((frame) => frame.type === 'new_message' && messageOf(frame).author_username === 'data', 30_000));
    expect(answer.content).toContain('| 22.5 |');

    // Deleting the file through B removes its object; deleting the chat through A the rest.
    expect((await rawRequest(b.url, 'DELETE', `/api/collections/files/records/${sales.id}`, { token: `Bearer ${ann.pb.authStore.token}` })).status).toBe(204);
    expect((await bucket.keys()).filter((key) => key.startsWith(`cluster/${chat.id}/`))).toHaveLength(2);
    await ann.pb.collection('chats').delete(chat.id);
    expect((await bucket.keys()).filter((key) => key.startsWith(`cluster/${chat.id}/`))).toEqual([]);
  }, 60_000);
});

describe('a bucket that is down', () => {
  let bucket: TestBucket;
  let testServer: TestServer;
  let alice: RegisteredUser;

  beforeAll(async () => {
    bucket = await startTestBucket();
    testServer = await startTestServer(variants[0]!, bucket.serverOptions());
    alice = await registerUser(testServer);
  });

  afterAll(async () => {
    await testServer?.close();
    await bucket?.start();
    await bucket?.close();
  });

  it('answers uploads, downloads and deletions with a clear 503, stores no record, and loses nothing', async () => {
    const chat = await createChat(alice, { name: 'Outage' });
    const kept = (await uploadTo(testServer.url, alice, chat.id, 'kept.txt', 'still here\n')).body as unknown as Uploaded;
    const before = await testServer.probe.count('files');
    await bucket.stop();
    try {
      const refused = await uploadTo(testServer.url, alice, chat.id, 'new.txt', 'not stored\n');
      expect(refused.status).toBe(503);
      expect(refused.body['message']).toBe('File storage is unavailable. Please try again shortly.');
      expect(await testServer.probe.count('files')).toBe(before);
      const incoming = join(testServer.dataDir, 'files', '.incoming');
      expect(existsSync(incoming) ? readdirSync(incoming) : []).toEqual([]);
      const token = `Bearer ${alice.pb.authStore.token}`;
      const download = await rawRequest(testServer.url, 'GET', `/api/files/files/${kept.id}/${kept.file}`, { token });
      expect(download.status).toBe(503);
      expect(download.body).toMatchObject({ status: 503, message: 'File storage is unavailable. Please try again shortly.' });
      expect((await rawRequest(testServer.url, 'DELETE', `/api/collections/files/records/${kept.id}`, { token })).status).toBe(503);
      expect(await testServer.probe.count('files')).toBe(before);
    } finally {
      await bucket.start();
    }
    // Back up: the file that was there still is, and uploads work again.
    const download = await rawRequest(testServer.url, 'GET', `/api/files/files/${kept.id}/${kept.file}`, { token: `Bearer ${alice.pb.authStore.token}` });
    expect(download.text).toBe('still here\n');
    expect((await uploadTo(testServer.url, alice, chat.id, 'new.txt', 'stored now\n')).status).toBe(200);
  });
});

/** Sends `bytes` of 'a' as a multipart upload, a megabyte at a time, never holding the body. */
function streamedUpload(url: string, token: string, chatId: string, bytes: number): Promise<{ status: number; body: string }> {
  const boundary = 'confab-streamed-upload';
  const prefix = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="chat"\r\n\r\n${chatId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const suffix = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL('/api/collections/files/records', url), {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(prefix.length + bytes + suffix.length), authorization: token },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    let written = 0;
    request.write(prefix);
    const pump = () => {
      while (written < bytes) {
        const size = Math.min(chunk.length, bytes - written);
        written += size;
        if (!request.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          request.once('drain', pump);
          return;
        }
      }
      request.end(suffix);
    };
    pump();
  });
}

describe.runIf(existsSync('/proc/self/status'))('a 100 MB upload to the bucket', () => {
  let bucket: TestBucket;
  let server: SourceServer;

  beforeAll(async () => {
    bucket = await startTestBucket();
    // A process of its own, so its memory is the server's alone.
    server = await startSourceServer(variants[0]!, bucket.environment());
  }, 60_000);

  afterAll(async () => {
    await server?.dispose();
    await bucket?.close();
  }, 30_000);

  it('streams to the bucket: the server grows by at most 64 MB, and the object is whole', async () => {
    const residentBytes = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    const owner = await registerOn(server);
    const chat = await createChat(owner, { name: 'Big' });
    const token = `Bearer ${owner.pb.authStore.token}`;
    // A first (small) upload loads the code on the path, so the baseline is the path's own.
    expect((await streamedUpload(server.url, token, chat.id, 1024)).status).toBe(200);
    const baseline = residentBytes();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes())), 20);
    const size = 100 * 1024 * 1024;
    let answer: { status: number; body: string };
    try {
      answer = await streamedUpload(server.url, token, chat.id, size);
    } finally {
      clearInterval(sampler);
    }
    expect(answer.status, answer.body).toBe(200);
    const record = JSON.parse(answer.body) as Uploaded;
    expect(record.size).toBe(size);
    expect(peak - baseline).toBeLessThan(64 * 1024 * 1024);
    expect(await bucket.keys()).toContain(`${chat.id}/${record.id}/${record.file}`);
    expect(readdirSync(join(server.dataDir, 'files', '.incoming'))).toEqual([]);
  }, 180_000);
});

describe('files migrate --to s3', () => {
  let bucket: TestBucket;
  let dataDir: string;

  beforeAll(async () => {
    bucket = await startTestBucket();
    dataDir = mkdtempSync(join(tmpdir(), 'confab-migrate-'));
  });

  afterAll(async () => {
    await bucket?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  /** `confab-server files migrate --to s3` from source, configured through the environment as an operator would. */
  const migrate = () =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--conditions=@confab/source', '--import', tsxLoader, join(workspaceRoot, 'packages/server/src/bin.ts'), 'files', 'migrate', '--to', 's3', '--data-dir', dataDir],
        { env: { PATH: process.env['PATH'] ?? '', ...bucket.environment('moved/') }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('close', (code) => resolve({ code, output }));
    });

  it('copies every stored file under the same key, skips what is there, and never prints a credential', async () => {
    const chat = 'aaaaaaaaaaaaaa1';
    const files = [
      [`${chat}/bbbbbbbbbbbbbb1/notes_abcdefghij.txt`, 'notes\n'],
      [`${chat}/bbbbbbbbbbbbbb2/data_abcdefghij.csv`, 'a,b\n1,2\n'],
      [`cccccccccccccc1/dddddddddddddd1/site_abcdefghij.html`, '<h1>site</h1>'],
    ] as const;
    for (const [key, content] of files) {
      mkdirSync(join(dataDir, 'files', key, '..'), { recursive: true });
      writeFileSync(join(dataDir, 'files', key), content);
    }
    // A partial upload is not a file to move.
    mkdirSync(join(dataDir, 'files', '.incoming'), { recursive: true });
    writeFileSync(join(dataDir, 'files', '.incoming', 'x.part'), 'partial');

    const first = await migrate();
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('Done: 3 files, 3 copied, 0 already there');
    expect(await bucket.keys()).toEqual(files.map(([key]) => `moved/${key}`).sort());
    const second = await migrate();
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('Done: 3 files, 0 copied, 3 already there');
    // The disk copies stay, and the SDK's secret is in no line.
    expect(existsSync(join(dataDir, 'files', files[0][0]))).toBe(true);
    expect(`${first.output}${second.output}`).not.toContain(bucket.environment()['AWS_SECRET_ACCESS_KEY']);
  }, 60_000);
});
