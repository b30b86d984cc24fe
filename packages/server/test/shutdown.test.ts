/**
 * SIGTERM and Ctrl-C drain the built server: it stops accepting connections, lets the request in
 * flight finish, releases its stores and exits 0; a request that never finishes is cut after the
 * bound (10 s) and the exit is still 0. With a drain delay, readiness says 503 first while the
 * rest is still served (docs/OPERATIONS.md, Draining).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, serverBuilt, signedInToken, startBuiltServer, untilRefused, type BuiltServer } from './support/builtServer';

const boundary = 'confab-shutdown-boundary';

/** A multipart upload whose body the test writes bit by bit; resolves with the answer. */
function openUpload(url: string, token: string, chatId: string): { request: ClientRequest; answer: Promise<{ status: number; body: string }> } {
  let request: ClientRequest | undefined;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request = httpRequest(
      new URL('/api/collections/files/records', url),
      { method: 'POST', headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
  });
  if (request === undefined) throw new Error('no request');
  request.write(`--${boundary}\r\ncontent-disposition: form-data; name="chat"\r\n\r\n${chatId}\r\n`);
  request.write(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="notes.txt"\r\ncontent-type: text/plain\r\n\r\n`);
  request.write('first half of the notes\n');
  return { request, answer };
}

function finishUpload(request: ClientRequest): void {
  request.write('second half of the notes\n');
  request.end(`\r\n--${boundary}--\r\n`);
}

async function chatOf(server: BuiltServer, username: string): Promise<{ token: string; chatId: string }> {
  const token = await signedInToken(server.url, username);
  const chat = await postJson(server.url, '/api/collections/chats/records', { name: 'Shutdown' }, token);
  return { token, chatId: String(chat['id']) };
}

describe.skipIf(!serverBuilt)('shutting the built server down', () => {
  let server: BuiltServer | undefined;

  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it('on SIGTERM stops accepting, finishes the upload in flight and exits 0', async () => {
    server = await startBuiltServer(['--no-web']);
    const { token, chatId } = await chatOf(server, 'drainer');
    const upload = openUpload(server.url, token, chatId);
    await new Promise((resolve) => setTimeout(resolve, 500));

    server.child.kill('SIGTERM');
    expect(await untilRefused(server.url)).toBe(true);
    expect(server.child.exitCode).toBeNull();

    finishUpload(upload.request);
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ chat: chatId, original_name: 'notes.txt' });
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('with CONFAB_DRAIN_DELAY_SECONDS, on SIGTERM answers /api/ready 503 draining while still serving, then stops and exits 0', async () => {
    server = await startBuiltServer(['--no-web'], { CONFAB_DRAIN_DELAY_SECONDS: '2' });
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    server.child.kill('SIGTERM');
    const draining = await (async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const answer = await fetch(`${server!.url}/api/ready`);
        if (answer.status === 503) return (await answer.json()) as { data: { draining: boolean } };
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return undefined;
    })();
    expect(draining?.data.draining).toBe(true);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await untilRefused(server.url)).toBe(true);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('on Ctrl-C (SIGINT, from the terminal and forwarded: twice) exits 0', async () => {
    server = await startBuiltServer(['--no-web']);
    server.child.kill('SIGINT');
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('cuts a request that never finishes after 10 s and still exits 0', async () => {
    server = await startBuiltServer(['--no-web']);
    const { token, chatId } = await chatOf(server, 'staller');
    const upload = openUpload(server.url, token, chatId);
    upload.answer.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const drainMs = Date.now() - stoppedAt;
    expect(drainMs).toBeGreaterThanOrEqual(9_000);
    expect(drainMs).toBeLessThan(25_000);
    await expect(upload.answer).rejects.toThrow();
  }, 60_000);
});
