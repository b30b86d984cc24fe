/**
 * From `confab init` to an answered mention, as a developer does it: the built `confab` in child
 * processes (Node 20 and Node 24) against a real confab-server in this process.
 *
 * The generated project depends on `@confab/client`, which is not on a registry here: the test
 * links the workspace package (`<project>/node_modules/@confab/client` → packages/client, built)
 * as `npm install` would place it, then runs the project's own `node --test`.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, childEnvironment, Confab } from './support/confab';
import type { LongRunning } from './support/confab';
import { nodesUnderTest } from './support/nodes';
import { password, startCliServer } from './support/server';
import type { CliTestServer, Person } from './support/server';

const workspaceClient = fileURLToPath(new URL('../../client', import.meta.url));

let server: CliTestServer;

beforeAll(async () => {
  assertBuilt();
  server = await startCliServer();
});
afterAll(async () => {
  await server?.close();
});

describe.each(nodesUnderTest)('an agent project on $name', (node) => {
  let confab: Confab;
  let person: Person;
  let agent: { id: string; username: string };
  let project: string;
  const running: LongRunning[] = [];

  beforeAll(async () => {
    confab = new Confab(node, await server.tempDir('confab-cli-config-'));
    person = await server.register(`dev_${node.name}`);
    expect((await confab.run(['login', '--server', server.url, '-u', person.username, '-p', password])).code).toBe(0);
    const created = await confab.json<{ agent: { id: string; username: string } }>(['agents', 'create', 'Echo', '--username', `echo_${node.name}`]);
    expect(created.code).toBe(0);
    agent = created.value.agent;
    project = join(await server.tempDir('confab-cli-project-'), 'echo-agent');
  });
  afterEach(() => {
    for (const child of running.splice(0)) child.dispose();
  });

  it('init creates a project whose own tests pass, and refuses a non-empty directory', async () => {
    const init = await confab.json<{ files: string[] }>(['init', project, '--agent', agent.username]);
    expect(init.code).toBe(0);
    expect(init.value.files).toEqual(['package.json', 'agent.mjs', 'agent.test.mjs', 'README.md', '.gitignore']);

    const again = await confab.run(['init', project]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty\. Choose an empty directory, or pass --force/);
    expect((await confab.run(['init', project, '--force', '--agent', agent.username])).code).toBe(0);

    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const clientVersion = (JSON.parse(await readFile(join(workspaceClient, 'package.json'), 'utf8')) as { version: string }).version;
    // From the server the CLI is signed in to (GET /api/packages/…), not a registry.
    expect(manifest['dependencies']).toEqual({ '@confab/client': `${server.url}/api/packages/confab-client-${clientVersion}.tgz` });
    const cliVersion = (JSON.parse(await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
    expect(manifest['devDependencies']).toEqual({ '@confab/cli': `${server.url}/api/packages/confab-cli-${cliVersion}.tgz` });
    expect(manifest['scripts']).toEqual({ start: `confab run --agent ${agent.username}`, test: 'node --test' });

    await linkWorkspaceClient(project);
    const tested = spawnSync(node.path, ['--test'], { cwd: project, env: childEnvironment(), encoding: 'utf8', timeout: 30_000 });
    expect(tested.status, `${tested.stdout}\n${tested.stderr}`).toBe(0);
    expect(tested.stdout).toMatch(/pass 1/);
  });

  it('init without a session or --server points at the registry and says how to use a server instead', async () => {
    const signedOut = new Confab(node, await server.tempDir('confab-cli-signed-out-'));
    const elsewhere = join(await server.tempDir('confab-cli-project-'), 'registry-agent');
    const result = await signedOut.run(['init', elsewhere]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Not signed in: the project depends on @confab/* from the npm registry. Run `confab login` (or pass --server) first');
    const manifest = JSON.parse(await readFile(join(elsewhere, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['@confab/client']).toMatch(/^\^\d+\.\d+\.\d+/);
    const withServer = join(await server.tempDir('confab-cli-project-'), 'server-agent');
    expect((await signedOut.run(['init', withServer, '--server', server.url])).code).toBe(0);
    const served = JSON.parse(await readFile(join(withServer, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(served.dependencies['@confab/client']).toMatch(new RegExp(`^${server.url}/api/packages/confab-client-\\d`));
  });

  it('run answers a mention, reloads the edited handler, survives a throwing one, and exits 0 on Ctrl+C', async () => {
    const chatId = await server.chatAllowingAgents(person, `Run ${node.name}`);
    const agentRun = confab.start(['run', '--json'], { cwd: project });
    running.push(agentRun);
    await agentRun.waitFor((line) => line['event'] === 'connected' && line['agent'] === agent.username);

    // Echo, as generated.
    await mention(chatId, `hello @${agent.username}`);
    const seen = await agentRun.waitFor((line) => line['event'] === 'mention');
    expect(seen).toMatchObject({ chat_id: chatId, chat_name: `Run ${node.name}`, author: person.username, content: `hello @${agent.username}` });
    const replied = await agentRun.waitFor((line) => line['event'] === 'reply');
    expect(replied).toMatchObject({ chat_id: chatId, chars: `You said: hello @${agent.username}`.length, streamed: false });
    expect(await agentReply(chatId, String(replied['message_id']))).toBe(`You said: hello @${agent.username}`);

    // Edited: the next mention runs the new code.
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => { await reply.send(`Heard: ${mention.content}`); };\n');
    const reloaded = agentRun.lines.length;
    await agentRun.waitFor((line) => line['event'] === 'reloaded', 15_000, reloaded);
    const before = agentRun.lines.length;
    await mention(chatId, `again @${agent.username}`);
    const second = await agentRun.waitFor((line) => line['event'] === 'reply', 15_000, before);
    expect(await agentReply(chatId, String(second['message_id']))).toBe(`Heard: again @${agent.username}`);

    // A handler that throws is logged; the agent keeps running and answers the next mention.
    const beforeThrow = agentRun.lines.length;
    await writeFile(join(project, 'agent.mjs'), "export default async () => { throw new Error('boom'); };\n");
    await agentRun.waitFor((line) => line['event'] === 'reloaded', 15_000, beforeThrow);
    await mention(chatId, `third @${agent.username}`);
    const failed = await agentRun.waitFor((line) => line['event'] === 'error', 15_000, beforeThrow);
    expect(String(failed['message'])).toMatch(/The mention handler failed .*: boom/);
    expect(String(failed['stack'])).toMatch(/^Error: boom\n\s+at .*agent\.mjs/);
    // The person who asked is told, in the chat, instead of waiting for a reply that never comes.
    expect(await agentMessageContaining(chatId, 'could not answer')).toBe(`@${agent.username} could not answer: Error: boom`);
    const beforeFix = agentRun.lines.length;
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => { await reply.send(`Back: ${mention.content}`); };\n');
    await agentRun.waitFor((line) => line['event'] === 'reloaded', 15_000, beforeFix);
    await mention(chatId, `fourth @${agent.username}`);
    const fourth = await agentRun.waitFor((line) => line['event'] === 'reply', 15_000, beforeFix);
    expect(await agentReply(chatId, String(fourth['message_id']))).toBe(`Back: fourth @${agent.username}`);

    const stopping = performance.now();
    expect(await agentRun.stop('SIGINT')).toBe(0);
    // Well under the CLI's 3 s safety exit: the socket, the watcher and every timer were closed.
    expect(performance.now() - stopping).toBeLessThan(2_500);
    expect(agentRun.lines.at(-1)).toMatchObject({ event: 'stopped', signal: 'SIGINT' });
  });

  it('run logs one line per mention and reply for people', async () => {
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => { await reply.send("pong"); };\n');
    const chatId = await server.chatAllowingAgents(person, 'Plain');
    const agentRun = confab.start(['run', 'agent.mjs', '--agent', agent.username, '--no-watch'], { cwd: project });
    running.push(agentRun);
    await agentRun.waitFor((line) => String(line['text']).startsWith(`Connected as @${agent.username}`));
    await mention(chatId, `ping @${agent.username}`);
    await agentRun.waitFor((line) => line['text'] === `→ @${person.username} in "Plain": ping @${agent.username}`);
    await agentRun.waitFor((line) => line['text'] === '← replied (4 chars)');
    expect(await agentRun.stop('SIGTERM')).toBe(0);
  });

  it('run reports a handler that does not load once per save, with its line, even when the save comes in two writes', async () => {
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => { await reply.send("pong"); };\n');
    const agentRun = confab.start(['run', '--json'], { cwd: project });
    running.push(agentRun);
    await agentRun.waitFor((line) => line['event'] === 'connected');
    const before = agentRun.lines.length;
    // An editor writing the file in two steps, the first half broken in its own way.
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => {\n');
    await new Promise((resolve) => setTimeout(resolve, 250));
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => {\n  await reply.send("pong" ;\n};\n');
    const failed = await agentRun.waitFor((line) => line['event'] === 'error', 15_000, before);
    expect(failed['message']).toBe('Could not load agent.mjs (line 2): SyntaxError: missing ) after argument list (still running the previous version)');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(agentRun.lines.slice(before).filter((line) => line['event'] === 'error')).toHaveLength(1);
    const fixed = agentRun.lines.length;
    await writeFile(join(project, 'agent.mjs'), 'export default async (mention, reply) => { await reply.send("pong"); };\n');
    await agentRun.waitFor((line) => line['event'] === 'reloaded', 15_000, fixed);
    expect(await agentRun.stop('SIGINT')).toBe(0);
  });

  it('run refuses a missing handler, an unknown agent and a wrong key clearly', async () => {
    const missing = await confab.json(['run', 'nope.mjs', '--agent', agent.username], { cwd: project });
    expect(missing.code).toBe(1);
    expect(String(missing.value['error'])).toMatch(/^No handler at nope\.mjs\./);
    const unknown = await confab.json(['run', '--agent', 'nobody_here'], { cwd: project });
    expect(unknown.code).toBe(1);
    expect(String(unknown.value['error'])).toMatch(/^No saved key for @nobody_here\./);
    const wrongKey = await confab.run(['run', '--agent', agent.username, '--json'], {
      cwd: project,
      env: { CONFAB_AGENT_KEY: `cfk_${'x'.repeat(43)}` },
    });
    expect(wrongKey.code).toBe(1);
    const lines = wrongKey.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ event: 'connecting' });
    expect(String(lines.at(-1)?.['error'])).toMatch(/^Invalid API key: the server refused it/);
  });

  it('post: as the agent where it was mentioned; a clear refusal where it was not, or where developer agents are off', async () => {
    const invoked = await server.chatAllowingAgents(person, 'Invoked');
    await writeFile(join(project, 'agent.mjs'), 'export default async () => {};\n');
    const agentRun = confab.start(['run', '--json'], { cwd: project });
    running.push(agentRun);
    await agentRun.waitFor((line) => line['event'] === 'connected');
    await mention(invoked, `note this @${agent.username}`);
    await agentRun.waitFor((line) => line['event'] === 'mention');
    expect(await agentRun.stop()).toBe(0);

    const posted = await confab.json<{ message_id: string }>(['post', '--agent', agent.username, '--chat', invoked, 'Noted.']);
    expect(posted.code).toBe(0);
    expect(await agentReply(invoked, posted.value.message_id)).toBe('Noted.');
    const piped = await confab.run(['post', '--agent', agent.username, '--chat', invoked], { input: 'From stdin\n' });
    expect(piped.code).toBe(0);
    const pipedId = /: ([a-z0-9]{15})$/.exec(piped.stdout.trim())?.[1] ?? '';
    expect(await agentReply(invoked, pipedId)).toBe('From stdin');

    const elsewhere = await server.chatAllowingAgents(person, 'Elsewhere');
    const refused = await confab.run(['post', '--agent', agent.username, '--chat', elsewhere, 'Hi']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'error: This agent may post only where it was mentioned in the last 10 minutes, in its dev room, or in a chat it belongs to.\n',
    );
    const agentsOff = (await person.pb.collection('chats').create({ name: 'No agents' })).id;
    const off = await confab.run(['post', '--agent', agent.username, '--chat', agentsOff, 'Hi']);
    expect(off.code).toBe(1);
    expect(off.stderr).toBe('error: Developer agents are off in this chat, so this agent may not post here. A chat admin can allow them in Chat Options.\n');
    const badChat = await confab.json(['post', '--agent', agent.username, '--chat', 'general', 'Hi']);
    expect(badChat.value).toEqual({ error: '"general" is not a chat id: 15 lower-case letters and digits (see `confab chats list`).' });
  });

  it("tail prints the chat's messages as they arrive until Ctrl+C", async () => {
    const chatId = await server.chatAllowingAgents(person, 'Tailed');
    const tail = confab.start(['tail', '--chat', chatId, '--json']);
    running.push(tail);
    await tail.waitFor((line) => line['event'] === 'joined' && line['chat_id'] === chatId);
    await person.pb.collection('messages').create({ chat: chatId, content: 'posted meanwhile' });
    const line = await tail.waitFor((candidate) => candidate['event'] === 'message');
    expect(line['message']).toMatchObject({ chat_id: chatId, author_username: person.username, content: 'posted meanwhile' });
    const stopping = performance.now();
    expect(await tail.stop('SIGINT')).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(2_500); // closed, not forced out by the safety exit

    const text = confab.start(['tail', '--chat', chatId]);
    running.push(text);
    await text.waitForStderr('Following "Tailed"'); // a notice for people: stderr, so stdout stays the messages
    await person.pb.collection('messages').create({ chat: chatId, content: 'and in text' });
    await text.waitFor((candidate) => String(candidate['text']).endsWith(`@${person.username}: and in text`));
    expect(await text.stop('SIGINT')).toBe(0);
    expect(text.output.stderr).toBe('Following "Tailed": new messages appear below (Ctrl+C to stop).\n');
  });

  /** A person's message in the chat (the record API), e.g. mentioning the agent. */
  async function mention(chatId: string, content: string): Promise<void> {
    await person.pb.collection('messages').create({ chat: chatId, content });
  }

  /** The content of the agent's message in the chat that contains `text`, once it arrives. */
  async function agentMessageContaining(chatId: string, text: string): Promise<string> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const messages = await person.pb
        .collection('messages')
        .getFullList<{ content: string }>({ filter: person.pb.filter('chat = {:chat} && author = {:agent}', { chat: chatId, agent: agent.id }) });
      const found = messages.find((message) => message.content.includes(text));
      if (found !== undefined) return found.content;
      if (Date.now() > deadline) throw new Error(`no message of the agent containing "${text}" in ${chatId}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The content of a message the agent posted, read back by the person through the record API. */
  async function agentReply(chatId: string, messageId: string): Promise<string> {
    const message = await person.pb.collection('messages').getOne<{ chat: string; author: string; content: string }>(messageId);
    expect(message).toMatchObject({ chat: chatId, author: agent.id });
    return message.content;
  }
});

/** What `npm install` would do with the project's @confab/client dependency: the workspace build. */
async function linkWorkspaceClient(project: string): Promise<void> {
  await mkdir(join(project, 'node_modules', '@confab'), { recursive: true });
  await symlink(workspaceClient, join(project, 'node_modules', '@confab', 'client'), 'dir');
}
