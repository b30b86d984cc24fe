import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../testing/waitUntil';
import { startFakeAgentServer, testApiKey } from './fakeAgentServer';
import type { FakeAgentServer } from './fakeAgentServer';

/* A real Node process running an agent (through the package's own `@confab/client/agent` export). */

const script = fileURLToPath(new URL('./fixtures/echoAgent.ts', import.meta.url));
let server: FakeAgentServer;

beforeEach(async () => {
  server = await startFakeAgentServer();
});

afterEach(async () => {
  await server.close();
});

function runAgent(apiKey: string) {
  const child = spawn(process.execPath, ['--conditions=@confab/source', '--import', 'tsx', script], {
    env: { ...process.env, CONFAB_URL: server.url, CONFAB_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { output: '', exitCode: null as number | null, exited: false };
  child.stdout.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
  child.once('exit', (code) => {
    run.exitCode = code;
    run.exited = true;
  });
  return { child, run };
}

describe('an agent process', () => {
  it('answers a mention and exits by itself once it calls close()', async () => {
    const { child, run } = runAgent(testApiKey);
    try {
      await waitUntil(() => run.output.includes('ready as @echo'), 'the agent to be ready', 15_000);
      server.mention({ content: 'hi' });
      await waitUntil(() => run.exited, `the process to exit (output: ${run.output})`, 10_000);
      expect(run.exitCode).toBe(0);
      expect(server.messages.map((message) => message.content)).toEqual(['echo: hi']);
    } finally {
      child.kill();
    }
  });

  it('prints the refused key and exits when the key is wrong', async () => {
    const { child, run } = runAgent(`cfk_${'z'.repeat(43)}`);
    try {
      await waitUntil(() => run.exited, 'the process to exit', 15_000);
      expect(run.exitCode).not.toBe(0);
      expect(run.output).toContain('Invalid API key: the server refused it');
      expect(run.output).not.toContain('z'.repeat(43));
    } finally {
      child.kill();
    }
  });
});
