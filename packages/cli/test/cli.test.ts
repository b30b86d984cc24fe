/**
 * The CLI as a user runs it: a child process against a real confab-server on port 0.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '@confab/server';

const run = promisify(execFile);
const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

describe('confab CLI', () => {
  let server: ConfabServer;
  let dataDir: string;
  let configDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'confab-cli-data-'));
    configDir = await mkdtemp(join(tmpdir(), 'confab-cli-config-'));
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false });
    const pb = new PocketBase(server.url);
    await pb.collection('users').create({
      username: 'cli_dev',
      email: 'cli.dev@example.com',
      password: 'correct horse 1',
      passwordConfirm: 'correct horse 1',
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(configDir, { recursive: true, force: true });
  });

  async function confab(...args: string[]) {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--conditions=@confab/source', '--import', 'tsx', entry, ...args],
        { env: { ...process.env, CONFAB_CONFIG_DIR: configDir, CONFAB_PASSWORD: '' } },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it('refuses whoami before login with a clear message and exit 1', async () => {
    const result = await confab('whoami');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: Not logged in. Run `confab login` first.\n');
  });

  it('validates the login options before calling the server', async () => {
    const result = await confab('login', '--server', server.url, '--username', 'cli_dev', '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: 'Please enter both username and password' });
  });

  it('reports the server message for bad credentials', async () => {
    const result = await confab('login', '--server', server.url, '-u', 'cli_dev', '-p', 'wrong password');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: Failed to authenticate.\n');
  });

  it('logs in, keeps a private session, answers whoami and logs out', async () => {
    const login = await confab('login', '--server', server.url, '-u', 'cli.dev@example.com', '-p', 'correct horse 1', '--json');
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({ username: 'cli_dev', server: server.url });
    const info = await stat(join(configDir, 'session.json'));
    expect(info.mode & 0o777).toBe(0o600);

    const whoami = await confab('whoami', '--json');
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ username: 'cli_dev', server: server.url });

    expect((await confab('logout')).stdout).toBe('Logged out\n');
    expect((await confab('whoami')).code).toBe(1);
  });
});
