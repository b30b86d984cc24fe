// `pnpm bench:agent-quickstart`: how long a new developer takes from nothing to a person's mention
// answered by their own agent, each step the way they would do it, against a fresh confab-server
// (from source, SQLite in a temp dir, 127.0.0.1): register a person over HTTP, `confab login`,
// `confab agents create`, `confab init`, install (the workspace's @confab/client and @confab/cli
// linked into node_modules: no registry here), the project's own `npm test` (`node --test`),
// `confab run` until connected, then a person's mention over a real WebSocket until the agent's
// reply arrives on it. Prints each step's time and the total; target ≤ 30 s.
//
// Uses the BUILT CLI (packages/cli/dist): the package.json script builds it first. Bounded: each
// command has a timeout, the whole run a hard one (--timeoutMs, default 120 000); children are
// stopped and temp dirs removed on every exit path.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerChild } from './child.mjs';
import { formatTable } from './stats.mjs';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const { WebSocket } = require('ws');

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=')));
const hardTimeoutMs = Number(args.timeoutMs ?? 120_000);
const commandTimeoutMs = 30_000;
const targetMs = 30_000;

const packages = fileURLToPath(new URL('../../packages/', import.meta.url));
const cliPackage = join(packages, 'cli');
const clientPackage = join(packages, 'client');
const password = 'quickstart password 1';

if (!existsSync(join(cliPackage, 'dist/index.js')) || !existsSync(join(clientPackage, 'dist/agent/index.js'))) {
  console.error('Build first: pnpm --filter @confab/client --filter @confab/cli build');
  process.exit(1);
}

const cleanups = [];
const steps = [];

/** Times one step; its result is passed on. */
async function step(name, what, work) {
  const started = performance.now();
  const result = await work();
  steps.push({ step: name, what, ms: performance.now() - started });
  return result;
}

async function main() {
  const root = await mkdtemp(join(tmpdir(), 'confab-quickstart-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const configDir = join(root, 'config');
  const project = join(root, 'echo-agent');
  // Before a project exists a developer runs the CLI with npx: the same built bin, linked into a
  // scratch directory as npx would fetch it (not timed: it stands for a download).
  const npx = join(root, 'npx');
  await linkWorkspacePackages(npx);
  const npxConfab = join(npx, 'node_modules/@confab/cli/dist/index.js');
  // After `npm install`, `npm start` runs the project's own copy.
  const projectConfab = join(project, 'node_modules/@confab/cli/dist/index.js');
  const env = { ...process.env, CONFAB_CONFIG_DIR: configDir, NODE_OPTIONS: '', CONFAB_SERVER: '', CONFAB_AGENT_KEY: '' };
  const confab = (...commandArgs) => runToEnd(process.execPath, [npxConfab, ...commandArgs], { cwd: root, env });

  const server = await step('server', 'a fresh confab-server (SQLite, 127.0.0.1)', async () => {
    const started = await startServerChild('confab', { BENCH_DATA_DIR: join(root, 'data') });
    cleanups.unshift(() => started.stop());
    return started;
  });
  const person = await step('register', 'a person signs up (HTTP record API)', () => register(server.url, 'quick_dev'));
  await step('login', 'confab login', () => confab('login', '--server', server.url, '-u', person.username, '-p', password));
  const agent = await step('agents create', 'confab agents create "Echo" (key saved)', async () =>
    JSON.parse(await confab('agents', 'create', 'Echo', '--username', 'echo', '--json')).agent,
  );
  await step('init', 'confab init echo-agent', () => confab('init', project, '--agent', agent.username));
  await step('install', 'npm install (workspace packages linked)', () => linkWorkspacePackages(project));
  await step('test', "npm test (the project's node --test)", () => runToEnd(process.execPath, ['--test'], { cwd: project, env }));

  const running = await step('run', 'confab run, until connected', async () => {
    const child = startAgent(process.execPath, [projectConfab, 'run', '--json'], { cwd: project, env });
    cleanups.unshift(() => child.stop());
    await child.connected;
    return child;
  });
  const chatId = await step('chat', 'the person makes a chat allowing developer agents', () => chatAllowingAgents(server.url, person));
  const reply = await step('mention', `a person's mention over a WebSocket → the agent's reply on it`, () =>
    mentionAndAwaitReply(server.url, person, chatId, agent.username),
  );
  const exitCode = await running.stop();

  const total = steps.reduce((sum, { ms }) => sum + ms, 0);
  console.log(formatTable(steps.map(({ step: name, what, ms }) => ({ step: name, what, time: `${(ms / 1000).toFixed(2)} s` }))));
  console.log('');
  console.log(`reply: ${JSON.stringify(reply)}; confab run exited ${exitCode} on Ctrl+C`);
  console.log(`total: ${(total / 1000).toFixed(2)} s (target ≤ ${targetMs / 1000} s): ${total <= targetMs ? 'met' : 'MISSED'}`);
  if (exitCode !== 0) throw new Error(`confab run exited ${exitCode} on SIGINT`);
}

/** What `npm install` would place in `dir`: the two workspace packages and the `confab` bin. */
async function linkWorkspacePackages(dir) {
  const scope = join(dir, 'node_modules/@confab');
  await mkdir(scope, { recursive: true });
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  for (const [name, target] of [
    ['client', clientPackage],
    ['cli', cliPackage],
  ]) {
    if (!existsSync(join(scope, name))) await symlink(target, join(scope, name), 'dir');
  }
  const bin = join(dir, 'node_modules/.bin/confab');
  if (!existsSync(bin)) await symlink('../@confab/cli/dist/index.js', bin);
}

async function http(baseUrl, path, { method = 'GET', body, token } = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function register(baseUrl, username) {
  await http(baseUrl, '/api/collections/users/records', {
    method: 'POST',
    body: { username, email: `${username}@example.com`, password, passwordConfirm: password },
  });
  const auth = await http(baseUrl, '/api/collections/users/auth-with-password', { method: 'POST', body: { identity: username, password } });
  return { id: auth.record.id, username, token: auth.token };
}

async function chatAllowingAgents(baseUrl, person) {
  const chat = await http(baseUrl, '/api/collections/chats/records', { method: 'POST', body: { name: 'Quickstart' }, token: person.token });
  await http(baseUrl, `/api/collections/chats/records/${chat.id}`, {
    method: 'PATCH',
    body: { agent_permissions: { confab_agents: true, developer_agents: true } },
    token: person.token,
  });
  return chat.id;
}

/** The person's socket: authenticate, join, send the mention, resolve with the agent's reply. */
async function mentionAndAwaitReply(baseUrl, person, chatId, agentUsername) {
  const { websocket_url: url } = await http(baseUrl, '/api/config');
  const socket = new WebSocket(url);
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply within 15 s')), 15_000);
      socket.on('error', reject);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'authenticate_with_token', token: person.token })));
      socket.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.type === 'authSuccess') socket.send(JSON.stringify({ type: 'join_chat', chat_id: chatId }));
        else if (frame.type === 'joined') {
          socket.send(JSON.stringify({ type: 'send_message', chat_id: chatId, content: `hello @${agentUsername}`, client_id: 'quickstart-1' }));
        } else if (frame.type === 'new_message' && frame.message.author_username === agentUsername) {
          clearTimeout(timer);
          resolve(frame.message.content);
        } else if (frame.type === 'authError' || frame.type === 'error' || frame.type === 'agent_notice') {
          clearTimeout(timer);
          reject(new Error(`the server answered ${JSON.stringify(frame)}`));
        }
      });
    });
  } finally {
    socket.close();
  }
}

/** Runs a command to its end; resolves with its stdout, rejects on a non-zero exit or a timeout. */
function runToEnd(command, commandArgs, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), commandTimeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${commandArgs.join(' ')} → ${signal ?? code}\n${stdout}${stderr}`));
    });
  });
}

/** `confab run --json`: `connected` resolves on its connected line; stop() sends SIGINT and resolves with the exit code. */
function startAgent(command, commandArgs, options) {
  const child = spawn(command, commandArgs, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  let buffered = '';
  const connected = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      if (buffered.split('\n').some((line) => line.includes('"event":"connected"'))) resolve();
    });
    void exited.then((code) => reject(new Error(`confab run exited (${code}) before connecting:\n${buffered}`)));
  });
  return {
    connected,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGINT');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}

async function cleanUp() {
  for (const cleanup of cleanups.splice(0)) await Promise.resolve(cleanup()).catch(() => {});
}

const hardTimeout = setTimeout(async () => {
  console.error(`agent quickstart: stopped after ${hardTimeoutMs} ms`);
  await cleanUp();
  process.exit(1);
}, hardTimeoutMs);

try {
  await main();
  process.exitCode = 0;
} catch (error) {
  console.error(`agent quickstart failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  clearTimeout(hardTimeout);
  await cleanUp();
}
