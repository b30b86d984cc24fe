/**
 * `pnpm start` ends cleanly: Ctrl-C (SIGINT to the terminal's process group) and SIGTERM to pnpm
 * alone both drain the server and end with exit 0, without pnpm's 'ELIFECYCLE Command failed' and
 * without leaving the server running. Runs what was built (CONFAB_START_SKIP_BUILD=1).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bannerPattern, serverBuilt, workspaceRoot } from './support/builtServer';
import { servedPackages } from '../src/packages/servedPackages';
import { startBuildPackages } from '../../../scripts/startBuild.mjs';

/** pnpm's own script, as `pnpm test` runs this file (npm_execpath); else the test is skipped. */
const pnpmEntry = process.env['npm_execpath'] !== undefined && /pnpm\.c?js$/.test(process.env['npm_execpath']) ? process.env['npm_execpath'] : undefined;

async function startAndStop(stop: (pnpmPid: number) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; url: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'confab-pnpm-start-'));
  const child = spawn(process.execPath, [pnpmEntry ?? '', 'start', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--no-web'], {
    cwd: workspaceRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONFAB_START_SKIP_BUILD: '1', DATABASE_URL: '', REDIS_URL: '', CONFAB_INBOUND_SMTP: 'off', CONFAB_LOG_LEVEL: '', CONFAB_LOG_FORMAT: '' },
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = bannerPattern.exec(output);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`pnpm start exited:\n${output}`)));
    });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    stop(child.pid ?? 0);
    const result = await exited;
    // Whatever pnpm did, nothing may still answer: the server went with it.
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
    return { ...result, output, url };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('what pnpm start builds', () => {
  it('includes every package the server serves as a tarball, so the quickstart on My Agents installs from a fresh clone', () => {
    for (const which of servedPackages) expect(startBuildPackages).toContain(`@confab/${which}`);
  });
});

describe.skipIf(!serverBuilt || pnpmEntry === undefined)('pnpm start', () => {
  it('is quiet, and ends with exit 0 on Ctrl-C', async () => {
    const result = await startAndStop((pid) => process.kill(-pid, 'SIGINT'));
    expect(result.output).not.toMatch(/ELIFECYCLE|Command failed/);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
    // The start-up line and nothing per request (--log-level warn).
    expect(result.output).not.toContain('/api/health');
  }, 60_000);

  it('ends with exit 0 when pnpm alone gets SIGTERM', async () => {
    const result = await startAndStop((pid) => process.kill(pid, 'SIGTERM'));
    expect(result.output).not.toMatch(/ELIFECYCLE|Command failed/);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
  }, 60_000);
});
