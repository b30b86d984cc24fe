/** A real confab-server on port 0 in the test process, and people registered on it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PocketBase from 'pocketbase';
import { startServer } from '@confab/server';
import type { ConfabServer } from '@confab/server';

export const password = 'correct horse 1';

export interface Person {
  id: string;
  username: string;
  email: string;
  /** Signed in as this person (record API). */
  pb: PocketBase;
}

export interface CliTestServer {
  url: string;
  server: ConfabServer;
  /** Registers and signs in a person (username unique per server). */
  register(username: string): Promise<Person>;
  /** A chat of `person` where developer agents may be mentioned. */
  chatAllowingAgents(person: Person, name: string): Promise<string>;
  /** A temp directory removed by close(). */
  tempDir(prefix: string): Promise<string>;
  close(): Promise<void>;
}

export async function startCliServer(): Promise<CliTestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'confab-cli-data-'));
  const dirs: string[] = [dataDir];
  // Each suite registers several people from 127.0.0.1; the sign-up limit has its own tests.
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, logger: false, smtpUrl: '', signupsPerIpPerHour: 10_000, inboundSmtp: 'off' });
  return {
    url: server.url,
    server,
    async register(username) {
      const pb = new PocketBase(server.url);
      pb.autoCancellation(false);
      const email = `${username.replace(/_/g, '.')}@example.com`;
      await pb.collection('users').create({ username, email, password, passwordConfirm: password });
      const { record } = await pb.collection('users').authWithPassword(username, password);
      return { id: record.id, username, email, pb };
    },
    async chatAllowingAgents(person, name) {
      const chat = await person.pb.collection('chats').create({ name });
      await person.pb.collection('chats').update(chat.id, { agent_permissions: { confab_agents: true, developer_agents: true } });
      return chat.id;
    },
    async tempDir(prefix) {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async close() {
      await server.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
