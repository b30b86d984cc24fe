/**
 * Fault matrix, an agent killed mid-stream (docs/OPERATIONS.md): a developer agent run by the
 * built `confab run` streams a reply and is SIGKILLed halfway. People see the reply stored with
 * what it had and marked interrupted, well within the stream timeout, and the agent's status line
 * cleared; `confab run` started again does not get that mention again (so no second answer), and
 * answers the next one. An agent that hangs without disconnecting is closed by the idle timeout
 * the same way (the server's clock moved past it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentLimits, interruptedReplyText, type AgentKeyAnswer } from '@confab/client/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { agentSocket, allowDeveloperAgents, createAgent } from '../support/agents';
import { createChat, postMessage, registerUser, type RegisteredUser } from '../support/fixtures';
import { startTestServer, type TestServer } from '../support/testServer';
import { authenticatedSocket, messageOf, type Frame, type TestSocket } from '../support/wsClient';

const cliEntry = fileURLToPath(new URL('../../../cli/dist/index.js', import.meta.url));
const built = existsSync(cliEntry);

/** Writes two parts, shows a status line, then never ends: the process is killed in between. */
const stallingHandler = `export default async (mention, reply) => {
  const stream = reply.stream();
  stream.write('First part. ');
  stream.write('Second part.');
  reply.status('still writing…');
  await new Promise(() => {});
};
`;
const answeringHandler = 'export default async (mention, reply) => { await reply.send(`Answered: ${mention.content}`); };\n';

/** `confab run --json` in a child process: its NDJSON lines, a wait for one, and SIGKILL. */
class AgentRun {
  readonly lines: Record<string, unknown>[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private output = '';
  private wake: () => void = () => undefined;

  constructor(folder: string, handler: string, key: string, serverUrl: string) {
    const file = join(folder, `agent-${Date.now()}.mjs`);
    writeFileSync(file, handler);
    this.child = spawn(process.execPath, [cliEntry, 'run', file, '--key', key, '--server', serverUrl, '--json', '--no-watch'], {
      cwd: folder,
      env: { ...process.env, CONFAB_CONFIG_DIR: folder, CONFAB_AGENT_KEY: '', NO_COLOR: '1' },
    });
    let partial = '';
    this.child.stdout.on('data', (chunk: Buffer) => {
      partial += chunk.toString();
      const complete = partial.split('\n');
      partial = complete.pop() ?? '';
      for (const line of complete) if (line.trim() !== '') this.lines.push(JSON.parse(line) as Record<string, unknown>);
      this.wake();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.output += chunk.toString();
    });
  }

  async waitFor(predicate: (line: Record<string, unknown>) => boolean, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.find(predicate);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`confab run printed no such line; lines: ${JSON.stringify(this.lines)}; stderr: ${this.output}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }

  /** kill -9, and the wait for the process to be gone. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}

describe.skipIf(!built)('an agent killed mid-stream (built confab run)', () => {
  let clockOffsetMs = 0;
  let testServer: TestServer;
  let dev: RegisteredUser;
  let folder: string;
  const runs: AgentRun[] = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'confab-killed-agent-'));
    testServer = await startTestServer({ name: 'sqlite', baseUrl: undefined }, { now: () => new Date(Date.now() + clockOffsetMs) });
    dev = await registerUser(testServer, { name: 'Dev' });
  });
  afterEach(async () => {
    await Promise.all(runs.splice(0).map((run) => run.kill()));
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });
  afterAll(async () => {
    await testServer?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  async function agentInChat(name: string): Promise<{ created: AgentKeyAnswer; chatId: string; watcher: TestSocket }> {
    const created = await createAgent(testServer.url, dev, { name, username: `${name.toLowerCase()}_${Math.random().toString(36).slice(2, 7)}` });
    const chatId = (await createChat(dev, { name: `${name} chat` })).id;
    await allowDeveloperAgents(dev, chatId);
    const watcher = await authenticatedSocket(testServer.url, dev.pb.authStore.token);
    sockets.push(watcher);
    await watcher.join(chatId);
    return { created, chatId, watcher };
  }

  function start(handler: string, key: string): AgentRun {
    const run = new AgentRun(folder, handler, key, testServer.url);
    runs.push(run);
    return run;
  }

  const isStatus = (agentId: string, text: string) => (frame: Frame) =>
    frame.type === 'agent_status' && frame['text'] === text && (frame['agent'] as { id: string }).id === agentId;

  it('stores what the stream had, marked interrupted, clears the status line, and never answers that mention twice', { timeout: 90_000 }, async () => {
    const { created, chatId, watcher } = await agentInChat('Storyteller');
    const { id: agentId, username } = created.agent;
    const first = start(stallingHandler, created.api_key);
    await first.waitFor((line) => line['event'] === 'connected');

    const asked = await postMessage(dev, chatId, `@${username} tell me a story`);
    const seen = await first.waitFor((line) => line['event'] === 'mention');
    await watcher.next((frame) => frame.type === 'stream_delta' && String(frame['text']).includes('Second part.'));
    await watcher.next(isStatus(agentId, 'still writing…'));
    // The stream's start cleared the line once already: only what comes after the kill counts.
    watcher.received.length = 0;

    const killedAt = performance.now();
    await first.kill();
    const stored = await watcher.next((frame) => frame.type === 'new_message' && messageOf(frame).author_id === agentId, agentLimits.streamIdleMs);
    const closedWithinMs = performance.now() - killedAt;
    expect(messageOf(stored).content).toBe(`First part. Second part.\n\n${interruptedReplyText(username)}`);
    expect(messageOf(stored).reply_to).toBe(asked.id);
    await watcher.next(isStatus(agentId, ''), 5_000);
    // Not after the 60 s idle timeout: the server closes it as soon as the agent's socket is gone.
    expect(closedWithinMs).toBeLessThan(5_000);
    console.info(`killed agent: its reply was stored, marked interrupted, ${Math.round(closedWithinMs)} ms after kill -9`);

    // Started again: the interrupted mention is not delivered again; the next one is answered.
    const second = start(answeringHandler, created.api_key);
    await second.waitFor((line) => line['event'] === 'connected');
    await postMessage(dev, chatId, `@${username} and now?`);
    const next = await second.waitFor((line) => line['event'] === 'reply');
    expect(second.lines.filter((line) => line['event'] === 'mention').map((line) => line['content'])).toEqual([`@${username} and now?`]);
    expect(second.lines.some((line) => line['mention_id'] === seen['mention_id'])).toBe(false);
    // Two answers in all: the interrupted one and the next mention's.
    const replies = await testServer.probe.rows('select id from messages where chat = $1 and author = $2 order by seq', [chatId, agentId]);
    expect(replies.map((row) => row['id'])).toEqual([messageOf(stored).message_id, next['message_id']]);
  });

  it('closes the stream of an agent that hangs without disconnecting once it has been idle for the stream timeout', async () => {
    const { created, chatId, watcher } = await agentInChat('Hanger');
    const { socket } = await agentSocket(testServer.url, created.api_key);
    sockets.push(socket);
    await postMessage(dev, chatId, `@${created.agent.username} go`);
    const mention = (await socket.nextOfType('mention'))['mention'] as { mention_id: string };
    socket.send({ type: 'mention_ack', mention_id: mention.mention_id });
    socket.send({ type: 'stream_start', chat_id: chatId, stream_id: 'hang-1', mention_id: mention.mention_id });
    socket.send({ type: 'stream_append', stream_id: 'hang-1', text: 'Half an answer' });
    socket.send({ type: 'agent_status', chat_id: chatId, text: 'thinking…' });
    await watcher.next(isStatus(created.agent.id, 'thinking…'));
    watcher.received.length = 0;

    clockOffsetMs += agentLimits.streamIdleMs + 1_000;
    const stored = await watcher.next((frame) => frame.type === 'new_message' && frame['stream_id'] === 'hang-1', 15_000);
    expect(messageOf(stored).content).toBe(`Half an answer\n\n${interruptedReplyText(created.agent.username)}`);
    await watcher.next(isStatus(created.agent.id, ''), 5_000);
  });
});
