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

describe.skipIf(!built)('the built confab-server (pnpm start)', () => {
  let child: ChildProcess;
  let dataDir: string;
  let url: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'confab-dist-'));
    child = spawn(process.execPath, [bin, '--port', '0', '--host', '127.0.0.1', '--web-dir', webDir, '--data-dir', dataDir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '' },
    });
    let output = '';
    url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Confab is running at (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => reject(new Error(`confab-server exited with ${code}:\n${output}`)));
    });
  }, 30_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the app and the API, and stores an upload', async () => {
    const page = await fetch(`${url}/chat/anything`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const json = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
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
});
