/** The built confab-server as a child process, started through the committed bin shim. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const workspaceRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const serverBin = join(workspaceRoot, 'packages/server/bin/confab-server.js');
export const serverBuilt = existsSync(join(workspaceRoot, 'packages/server/dist/bin.js'));
if (!serverBuilt && process.env['CI']) throw new Error('packages/server/dist is missing: run the README\'s test command.');

/** The start-up line, readable (`Confab is running at http://…`) or as a JSON log line. */
export const bannerPattern = /Confab is running at (http:\/\/[^\s"]+)/;

export interface BuiltServer {
  child: ChildProcess;
  url: string;
  dataDir: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILLs the process if it still runs, and removes its data dir. */
  dispose(): Promise<void>;
}

/** Starts `confab-server <args>` on port 0 and a fresh SQLite data dir; resolves once it listens. */
export async function startBuiltServer(args: string[] = [], environment: NodeJS.ProcessEnv = {}): Promise<BuiltServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-built-'));
  const child = spawn(process.execPath, [serverBin, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], {
    cwd: workspaceRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', CONFAB_INBOUND_SMTP: 'off', CONFAB_LOG_LEVEL: '', CONFAB_LOG_FORMAT: '', CONFAB_WEB_DIR: '', ...environment },
  });
  const { url, output, exited } = await untilListening(child, 'confab-server');
  return {
    child,
    url,
    dataDir,
    output,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Collects a server child's output and resolves with the URL of its start-up line; rejects with
 * the output when it exits first (`label` names it in that error).
 */
export async function untilListening(
  child: ChildProcess,
  label: string,
): Promise<{ url: string; output: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = bannerPattern.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`${label} exited with ${code}:\n${output}`)));
  });
  return { url, output: () => output, exited };
}

/** True once nothing answers at `url` any more (a stopped server refuses connections); false after `timeoutMs`. */
export async function untilRefused(url: string, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/api/health`, { headers: { connection: 'close' } });
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** POSTs JSON and returns the parsed answer; fails the test on a non-200. */
export async function postJson(url: string, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: token }) },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Registers `username` and signs them in; resolves with their token. */
export async function signedInToken(url: string, username: string): Promise<string> {
  const password = `${username} password 1`;
  await postJson(url, '/api/collections/users/records', { username, email: `${username}@example.com`, password, passwordConfirm: password });
  const { token } = (await postJson(url, '/api/collections/users/auth-with-password', { identity: username, password })) as { token: string };
  return token;
}
