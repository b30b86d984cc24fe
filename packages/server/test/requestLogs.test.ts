/**
 * What the built server prints: one readable line per request on a terminal (or with
 * `--log-format pretty`), JSON lines otherwise (or with `--log-format json`), nothing per request
 * with `--log-level warn` (what `pnpm start` passes); secrets redacted in every form.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prettyLogLine } from '../src/http/logging';
import { bannerPattern, serverBin, serverBuilt, startBuiltServer, workspaceRoot, type BuiltServer } from './support/builtServer';

const secret = 'SuperSecretResetToken123';

/** Lets the server write the lines of the requests just answered. */
async function settle(server: BuiltServer, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!pattern.test(server.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function visit(server: BuiltServer): Promise<void> {
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  await (await fetch(`${server.url}/reset-password?token=${secret}`)).arrayBuffer();
}

describe('prettyLogLine', () => {
  it('writes a request as time, method, path, status and milliseconds', () => {
    const json = JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5), reqId: 'req-1', req: { method: 'GET', url: '/api/health', ip: '127.0.0.1' }, res: { statusCode: 200 }, responseTime: 3.4, msg: 'request completed' });
    expect(prettyLogLine(json)).toMatch(/^\d\d:\d\d:\d\d GET \/api\/health 200 3 ms\n$/);
  });

  it('writes other lines with their level, message and fields, and an error with its stack', () => {
    const warning = JSON.stringify({ level: 40, time: Date.now(), pid: 1, hostname: 'h', address: '127.0.0.1:2525', msg: 'inbound SMTP port taken' });
    expect(prettyLogLine(warning)).toMatch(/^\d\d:\d\d:\d\d WARN inbound SMTP port taken address=127\.0\.0\.1:2525\n$/);
    const failure = JSON.stringify({ level: 50, time: Date.now(), err: { message: 'boom', stack: 'Error: boom\n    at here' }, msg: 'bus error' });
    expect(prettyLogLine(failure)).toContain('ERROR bus error\n  Error: boom\n      at here\n');
    expect(prettyLogLine('not json')).toBe('not json\n');
  });
});

describe.skipIf(!serverBuilt)('request logs of the built server', () => {
  let server: BuiltServer | undefined;

  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it('writes JSON lines, one per request, when stdout is not a terminal', async () => {
    server = await startBuiltServer(['--no-web']);
    await visit(server);
    await settle(server, /reset-password/);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line['msg'] === `Confab is running at ${server?.url}`)).toMatchObject({ url: server.url, level: 30 });
    const requests = lines.filter((line) => line['msg'] === 'request completed');
    expect(requests.map((line) => (line['req'] as { url: string }).url)).toEqual(['/api/health', '/reset-password?token=[redacted]']);
    expect(requests.map((line) => (line['res'] as { statusCode: number }).statusCode)).toEqual([200, 404]);
    for (const line of requests) expect(typeof line['responseTime']).toBe('number');
    expect(lines.some((line) => line['msg'] === 'incoming request')).toBe(false);
    expect(server.output()).not.toContain(secret);
  });

  it('writes one readable line per request with --log-format pretty', async () => {
    server = await startBuiltServer(['--no-web', '--log-format', 'pretty']);
    await visit(server);
    await settle(server, /reset-password/);
    const output = server.output();
    expect(output).toMatch(/^Confab is running at http:\/\/127\.0\.0\.1:\d+ \(the API only, no web app\)$/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d GET \/api\/health 200 \d+ ms$/m);
    expect(output).toMatch(/^\d\d:\d\d:\d\d GET \/reset-password\?token=\[redacted\] 404 \d+ ms$/m);
    expect(output).not.toContain(secret);
    expect(output).not.toContain('{"level"');
  });

  it('with --log-level warn (pnpm start) prints the start-up line and no request lines', async () => {
    server = await startBuiltServer(['--no-web', '--log-level', 'warn', '--log-format', 'pretty']);
    await visit(server);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.output().trim()).toMatch(/^Confab is running at http:\/\/127\.0\.0\.1:\d+ \(the API only, no web app\)$/);
  });

  it('CONFAB_LOG_LEVEL does the same, and a level it does not know stops the start with a clear message', async () => {
    server = await startBuiltServer(['--no-web'], { CONFAB_LOG_LEVEL: 'warn' });
    await visit(server);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.output().trim().split('\n')).toHaveLength(1);

    const dataDir = mkdtempSync(join(tmpdir(), 'confab-badlevel-'));
    try {
      const result = spawnSync(process.execPath, [serverBin, '--port', '0', '--data-dir', dataDir, '--log-level', 'chatty'], { cwd: workspaceRoot, encoding: 'utf8' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('--log-level (CONFAB_LOG_LEVEL) must be one of trace, debug, info, warn, error, fatal, silent');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** `script` gives the server a pseudo-terminal, as a person's shell does. */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!serverBuilt || !hasScript)('the built server on a terminal', () => {
  it('prints readable lines without being asked', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-tty-'));
    // `exec`: the shell `script` runs becomes the server, so Ctrl-C reaches the server alone (a
    // waiting dash would die of the SIGINT itself and `script -e` would report 130).
    const command = `exec ${[process.execPath, serverBin, '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--no-web'].map((part) => `'${part}'`).join(' ')}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: workspaceRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, SHELL: '/bin/sh', DATABASE_URL: '', REDIS_URL: '', CONFAB_INBOUND_SMTP: 'off', CONFAB_LOG_FORMAT: '', CONFAB_LOG_LEVEL: '', NO_COLOR: '1' },
    });
    let output = '';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString().replace(/\r/g, '');
          const match = bannerPattern.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then(() => reject(new Error(`exited:\n${output}`)));
      });
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const deadline = Date.now() + 5000;
      while (!/GET \/api\/health/.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toMatch(/^\d\d:\d\d:\d\d GET \/api\/health 200 \d+ ms$/m);
      expect(output).not.toContain('{"level"');
      // Ctrl-C on the terminal: the server drains and exits, and `script` with it.
      child.stdin.write('\u0003');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 20_000))]);
      expect(code).toBe(0);
    } finally {
      // Closing the pseudo-terminal hangs the server up, should it still run.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
