/**
 * The examples of docs/agent-sdk.md, docs/cli.md and packages/client/README.md, run as a reader would run them, against a
 * real confab-server in this process. A block written ```js file=<name> (or ```sh file=<name>) is
 * an example: the SDK's are written to a project as they are and run with Node; the CLI
 * quickstart is run line by line. If the docs change, this test runs the new text.
 *
 * What differs from a reader's machine, and only that: the server's address replaces
 * http://localhost:8090, `confab` is the built CLI (what `npm install -g` gets from the server: the
 * test checks the server serves it), and `npm install` links the workspace packages where npm would
 * put them (apps/reference/e2e/quickstart.test.ts does the real installs).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnvironment, cliEntry, Confab } from './support/confab';
import { nodesUnderTest } from './support/nodes';
import { password, startCliServer } from './support/server';
import type { CliTestServer, Person } from './support/server';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const workspacePackage = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));
const documentedServer = 'http://localhost:8090';

interface Example {
  language: string;
  file: string;
  code: string;
}

/** The ```<language> file=<name> blocks of a page (a path from the repository's root). */
async function examplesOf(page: string): Promise<Map<string, Example>> {
  const text = await readFile(join(repoRoot, page), 'utf8');
  const examples = new Map<string, Example>();
  for (const match of text.matchAll(/^```(\w+) file=(\S+)\n([\s\S]*?)^```$/gm)) {
    const [, language = '', file = '', code = ''] = match;
    examples.set(file, { language, file, code });
  }
  return examples;
}

function exampleNamed(examples: Map<string, Example>, file: string): Example {
  const example = examples.get(file);
  if (example === undefined) throw new Error(`the docs no longer have the example ${file}`);
  return example;
}

/** What `npm install` puts in node_modules for these dependencies (the workspace builds). */
async function linkWorkspacePackages(project: string, packages: { client?: boolean; cli?: boolean; ws?: boolean }): Promise<void> {
  await mkdir(join(project, 'node_modules', '@confab'), { recursive: true });
  if (packages.client) await symlink(workspacePackage('client'), join(project, 'node_modules', '@confab', 'client'), 'dir');
  if (packages.cli) {
    await symlink(workspacePackage('cli'), join(project, 'node_modules', '@confab', 'cli'), 'dir');
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await symlink(cliEntry, join(project, 'node_modules', '.bin', 'confab'));
  }
  if (packages.ws) {
    const wsDir = dirname(createRequire(cliEntry).resolve('ws/package.json'));
    await symlink(wsDir, join(project, 'node_modules', 'ws'), 'dir');
  }
}

/** A shell line split into words (double and single quotes; no expansions are used in the docs). */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

/** A long-running child whose output we wait on. */
function startChild(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child: ChildProcessWithoutNullStreams = spawn(command, args, { ...options, stdio: 'pipe', detached: true });
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of [...waiters]) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    get output() {
      return output;
    },
    async waitFor(text: string | RegExp, timeoutMs = 20_000): Promise<void> {
      const found = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
      const deadline = Date.now() + timeoutMs;
      while (!found()) {
        if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms: ${String(text)}\n${output}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, 250);
          waiters.add(wake);
        });
      }
    },
    /** Ctrl+C, as a terminal sends it to the whole process group; resolves with the exit code. */
    async interrupt(exitWithinMs = 10_000): Promise<number | null> {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), exitWithinMs));
      const outcome = await Promise.race([exited, timeout]);
      if (outcome === 'timeout') {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        throw new Error(`${command} ${args.join(' ')} did not exit on Ctrl+C within ${exitWithinMs} ms\n${output}`);
      }
      return outcome;
    },
    /** Resolves with the exit code once it exits by itself; kills it after exitWithinMs. */
    async exited(exitWithinMs: number): Promise<number | null> {
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), exitWithinMs));
      const outcome = await Promise.race([exited, timeout]);
      if (outcome === 'timeout') {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        throw new Error(`${command} ${args.join(' ')} did not exit by itself within ${exitWithinMs} ms\n${output}`);
      }
      return outcome;
    },
    kill(): void {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

let server: CliTestServer;
const node = nodesUnderTest[0]!;

beforeAll(async () => {
  assertBuilt();
  server = await startCliServer();
});
afterAll(async () => {
  await server?.close();
});

/** Polls the chat (as `person`) until a message by `authorId` with this content is stored. */
async function waitForMessage(person: Person, chatId: string, authorId: string, content: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await person.pb.collection('messages').getList<{ author: string; content: string }>(1, 50, { filter: `chat = "${chatId}"`, sort: '-seq' });
    if (page.items.some((message) => message.author === authorId && message.content === content)) return;
    if (Date.now() > deadline) {
      throw new Error(`no message "${content}" by ${authorId} within ${timeoutMs} ms; the chat holds: ${JSON.stringify(page.items.map((m) => m.content))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('docs/agent-sdk.md', () => {
  it('echo.mjs connects with its key, answers a mention, streams a long one, and exits on Ctrl+C', async () => {
    const examples = await examplesOf('docs/agent-sdk.md');
    const echo = exampleNamed(examples, 'echo.mjs');
    expect(echo.code).toContain(documentedServer);

    const person = await server.register('sdk_reader');
    const created = await person.pb.send<{ agent: { id: string; username: string }; api_key: string }>('/api/agents', {
      method: 'POST',
      body: { name: 'Docs Echo', username: 'docs_echo' },
    });
    const chatId = await server.chatAllowingAgents(person, 'Reading the SDK docs');

    const project = await server.tempDir('confab-docs-sdk-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'echo', private: true, type: 'module' }));
    await writeFile(join(project, 'echo.mjs'), echo.code.replaceAll(documentedServer, server.url));
    await linkWorkspacePackages(project, { client: true, ws: true });

    const agent = startChild(node.path, ['echo.mjs'], { cwd: project, env: childEnvironment({ CONFAB_API_KEY: created.api_key }) });
    try {
      await agent.waitFor(`@${created.agent.username} is listening (dev room `);

      await person.pb.collection('messages').create({ chat: chatId, content: `hi @${created.agent.username}` });
      await waitForMessage(person, chatId, created.agent.id, `You said: hi @${created.agent.username}`);

      await person.pb.collection('messages').create({ chat: chatId, content: `a long one, @${created.agent.username}` });
      await waitForMessage(person, chatId, created.agent.id, 'Once upon a time.');

      expect(await agent.interrupt()).toBe(0);
    } finally {
      agent.kill();
    }
  });

  it('echo.test.mjs passes under node --test', async () => {
    const examples = await examplesOf('docs/agent-sdk.md');
    const project = await server.tempDir('confab-docs-sdk-test-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'echo-test', private: true, type: 'module' }));
    await writeFile(join(project, 'echo.test.mjs'), exampleNamed(examples, 'echo.test.mjs').code);
    await linkWorkspacePackages(project, { client: true });
    const tested = spawnSync(node.path, ['--test'], { cwd: project, env: childEnvironment(), encoding: 'utf8', timeout: 30_000 });
    expect(tested.status, `${tested.stdout}\n${tested.stderr}`).toBe(0);
    expect(tested.stdout).toMatch(/# pass 1/);
  });
});

describe('docs/cli.md', () => {
  it('the quickstart, line by line: login, agents create, init, then npm test and npm start answer a mention', async () => {
    const quickstart = exampleNamed(await examplesOf('docs/cli.md'), 'quickstart.sh');
    // The reader already has an account on the server (the quickstart signs in as alice).
    const alice = await server.register('alice');
    const confab = new Confab(node, await server.tempDir('confab-docs-config-'));
    let cwd = await server.tempDir('confab-docs-cli-');
    let started: ReturnType<typeof startChild> | null = null;

    try {
      const lines = quickstart.code
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        .filter((line) => line !== '');
      expect(lines.length).toBeGreaterThanOrEqual(4);

      for (const line of lines) {
        for (const step of line.split('&&').map((part) => part.trim())) {
          const [command, ...args] = words(step.replaceAll(documentedServer, server.url));
          if (command === 'npm' && args[0] === 'install' && args[1] === '-g') {
            // The CLI's tarball, from the server: `confab` below is the built CLI it holds.
            const tarball = await fetch(args[2] ?? '');
            expect(tarball.status, step).toBe(200);
            expect([...new Uint8Array(await tarball.arrayBuffer()).slice(0, 2)]).toEqual([0x1f, 0x8b]);
          } else if (command === 'confab') {
            const result = await confab.run(args, { cwd, env: { CONFAB_PASSWORD: password } });
            expect(result.code, `${step}\n${result.stdout}\n${result.stderr}`).toBe(0);
          } else if (command === 'cd') {
            cwd = join(cwd, args[0] ?? '');
          } else if (command === 'npm' && args[0] === 'install') {
            const manifest = JSON.parse(await readFile(join(cwd, 'package.json'), 'utf8')) as {
              dependencies: Record<string, string>;
              devDependencies: Record<string, string>;
            };
            expect(Object.keys(manifest.dependencies)).toEqual(['@confab/client']);
            expect(Object.keys(manifest.devDependencies)).toEqual(['@confab/cli']);
            // From the server the CLI signed in to: the same tarballs, no registry needed.
            expect(manifest.dependencies['@confab/client']).toMatch(new RegExp(`^${server.url}/api/packages/confab-client-\\d`));
            await linkWorkspacePackages(cwd, { client: true, cli: true });
          } else if (command === 'npm' && args[0] === 'test') {
            const tested = spawnSync('npm', ['test'], { cwd, env: childEnvironment(), encoding: 'utf8', timeout: 60_000 });
            expect(tested.status, `${tested.stdout}\n${tested.stderr}`).toBe(0);
          } else if (command === 'npm' && args[0] === 'start') {
            // The agent runs with the key `agents create` saved in the config dir.
            started = startChild('npm', ['start'], { cwd, env: childEnvironment({ CONFAB_CONFIG_DIR: confab.configDir }) });
          } else {
            throw new Error(`the quickstart has a step this test does not know how to run: ${step}`);
          }
        }
      }

      expect(alice.username).toBe('alice');
      expect(started, 'the quickstart ends by starting the agent').not.toBeNull();
      const agentRun = started as unknown as ReturnType<typeof startChild>;
      await agentRun.waitFor('Connected as @echo_bot. Mention it in a chat; Ctrl+C stops.');
      const agents = await alice.pb.send<{ agents: Array<{ id: string; username: string }> }>('/api/agents/mine', {});
      const echoBot = agents.agents.find((agent) => agent.username === 'echo_bot');
      expect(echoBot).toBeDefined();

      const chatId = await server.chatAllowingAgents(alice, 'Planning');
      await alice.pb.collection('messages').create({ chat: chatId, content: 'hi @echo_bot' });
      await waitForMessage(alice, chatId, echoBot!.id, 'You said: hi @echo_bot');
      await agentRun.waitFor('→ @alice in "Planning": hi @echo_bot');
      await agentRun.waitFor(/← replied \(\d+ chars\)/);
      await agentRun.interrupt();
    } finally {
      (started as ReturnType<typeof startChild> | null)?.kill();
    }
  });
});

describe('packages/client/README.md', () => {
  async function runExample(file: string, timeoutMs = 30_000): Promise<string> {
    const example = exampleNamed(await examplesOf('packages/client/README.md'), file);
    expect(example.code).toContain(documentedServer);
    const project = await server.tempDir('confab-docs-client-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'client-example', private: true, type: 'module' }));
    await writeFile(join(project, file), example.code.replaceAll(documentedServer, server.url));
    await linkWorkspacePackages(project, { client: true, ws: true });
    // Not spawnSync: the server answering the example runs in this process.
    const ran = startChild(node.path, [file], { cwd: project, env: childEnvironment() });
    const code = await ran.exited(timeoutMs);
    expect(code, ran.output).toBe(0);
    return ran.output;
  }

  it('example.mjs registers ada (or says why not and signs in), then prints the session and the config', async () => {
    const first = await runExample('example.mjs');
    expect(first).toMatch(/^true ada$/m);
    expect(first).toContain('api_base_url');
    // A second run finds the username taken, prints the spec's text and signs in instead.
    const second = await runExample('example.mjs');
    expect(second).toContain('The username is invalid or already in use');
    expect(second).toMatch(/^true ada$/m);
  });

  it('chat.mjs creates a chat, sends a message and prints it pending, then sent with seq 1', async () => {
    const output = await runExample('chat.mjs');
    expect(output).toMatch(/^null pending Hello, engines$/m);
    expect(output).toMatch(/^1 sent Hello, engines$/m);
  });
});
