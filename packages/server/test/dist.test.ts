/**
 * The built server, as `pnpm start` runs it: `node packages/server/dist/bin.js --web-dir
 * apps/reference/dist` on the embedded defaults. Tests elsewhere load the sources; this one proves
 * the published bundle starts, serves the app and handles a real upload (it caught the server's
 * dist importing a client build that `pnpm start` did not make).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'packages/server/dist/bin.js');
const webDir = join(root, 'apps/reference/dist');
const built = existsSync(bin) && existsSync(join(webDir, 'index.html'));
if (!built && process.env['CI']) throw new Error(`The built server (${bin}) and app (${webDir}) are missing: run the README's test command.`);

/** Starts `dist/bin.js` on a data dir; resolves with the process and its URL once it listens. */
async function startBuilt(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--host', '127.0.0.1', '--web-dir', webDir, '--data-dir', dataDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Confab is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`confab-server exited with ${code}:\n${output}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function postJson(url: string, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe.skipIf(!built)('the built confab-server (pnpm start)', () => {
  let child: ChildProcess;
  let dataDir: string;
  let url: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'confab-dist-'));
    ({ child, url } = await startBuilt(dataDir));
  }, 30_000);

  afterAll(async () => {
    if (child) await stop(child, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the app and the API, and stores an upload', async () => {
    const page = await fetch(`${url}/chat/anything`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const json = (path: string, body: unknown, token?: string) => postJson(url, path, body, token);
    const password = 'dist smoke 1';
    await json('/api/collections/users/records', { username: 'distsmoke', email: 'dist@example.com', password, passwordConfirm: password });
    const { token } = (await json('/api/collections/users/auth-with-password', { identity: 'distsmoke', password })) as { token: string };
    const chat = await json('/api/collections/chats/records', { name: 'Dist' }, token);

    const form = new FormData();
    form.append('chat', String(chat['id']));
    form.append('file', new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
    const uploaded = await fetch(`${url}/api/collections/files/records`, { method: 'POST', headers: { authorization: token }, body: form });
    expect(uploaded.status).toBe(200);
    const record = (await uploaded.json()) as { id: string; file: string };
    const download = await fetch(`${url}/api/files/files/${record.id}/${record.file}`, { headers: { authorization: token } });
    expect(await download.text()).toBe('a,b\n1,2\n');
  });

  it('keeps every acknowledged message through kill -9 and starts again on the same data', async () => {
    const crashDir = mkdtempSync(join(tmpdir(), 'confab-crash-'));
    try {
      let running = await startBuilt(crashDir);
      const password = 'crash test 1';
      await postJson(running.url, '/api/collections/users/records', { username: 'crasher', email: 'crash@example.com', password, passwordConfirm: password });
      const { token } = (await postJson(running.url, '/api/collections/users/auth-with-password', { identity: 'crasher', password })) as { token: string };
      const chat = await postJson(running.url, '/api/collections/chats/records', { name: 'Crash' }, token);
      const sent: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        const content = `acknowledged ${index}`;
        await postJson(running.url, '/api/collections/messages/records', { chat: chat['id'], encryptedContent: content, message_type: 'regular' }, token);
        sent.push(content);
      }
      await stop(running.child, 'SIGKILL');
      running = await startBuilt(crashDir);
      try {
        const list = await fetch(`${running.url}/api/collections/messages/records?perPage=100&sort=seq&filter=${encodeURIComponent(`chat='${String(chat['id'])}'`)}`, {
          headers: { authorization: token },
        });
        expect(list.status).toBe(200);
        const items = ((await list.json()) as { items: { content?: string; encryptedContent?: string; seq: number }[] }).items;
        expect(items.map((item) => item.seq)).toEqual(sent.map((_, index) => index + 1));
        expect(items.map((item) => item.content ?? item.encryptedContent)).toEqual(sent);
      } finally {
        await stop(running.child, 'SIGTERM');
      }
    } finally {
      rmSync(crashDir, { recursive: true, force: true });
    }
  }, 60_000);
});
