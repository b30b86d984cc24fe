import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import PocketBase from 'pocketbase';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '../src/index';
import { databaseVariants, type DatabaseVariant } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer } from './support/testServer';
import { authenticatedSocket, type WireMessage } from './support/wsClient';

/** Fault tests: whatever happens to the socket or the server, the client's view ends equal to the log. */
const variants = await databaseVariants();

async function serverLog(user: RegisteredUser, chatId: string): Promise<{ id: string; seq: number; content: string }[]> {
  const records = await user.pb.collection('messages').getFullList({ filter: user.pb.filter('chat = {:id}', { id: chatId }), sort: 'seq' });
  return records.map((record) => ({ id: record.id, seq: Number(record['seq']), content: String(record['content']) }));
}

function viewOf(messages: WireMessage[]) {
  return messages.map((message) => ({ id: message.message_id, seq: message.seq, content: message.content }));
}

describe.each(variants)('realtime faults ($name)', (variant: DatabaseVariant) => {
  it('a socket killed mid-stream resumes with after_seq and ends equal to the server log', async () => {
    const testServer = await startTestServer(variant);
    try {
      const ann = await registerUser(testServer);
      const bob = await registerUser(testServer);
      const carol = await registerUser(testServer);
      const chat = await createChat(ann, { participants: [bob.record.id, carol.record.id] });
      const view: WireMessage[] = [];
      const first = await authenticatedSocket(testServer.url, bob.pb.authStore.token);
      await first.join(chat.id);
      // Two authors write concurrently while Bob's socket dies part-way through.
      const writing = Promise.all([
        (async () => { for (let index = 0; index < 20; index += 1) await postMessage(ann, chat.id, `ann ${index}`); })(),
        (async () => { for (let index = 0; index < 20; index += 1) await postMessage(carol, chat.id, `carol ${index}`); })(),
      ]);
      for (let index = 0; index < 8; index += 1) view.push(await first.nextMessage(chat.id));
      first.socket.terminate();
      await first.closed;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await authenticatedSocket(testServer.url, bob.pb.authStore.token);
      const { replayed } = await second.join(chat.id, view.at(-1)?.seq ?? 0);
      view.push(...replayed);
      await writing;
      while ((view.at(-1)?.seq ?? 0) < 40) view.push(await second.nextMessage(chat.id));
      await second.close();
      expect(viewOf(view)).toEqual(await serverLog(ann, chat.id));
      expect(view.map((message) => message.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    } finally {
      await testServer.close();
    }
  });

  describe('server restart', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'confab-restart-'));
    const schema = `test_restart_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const databaseUrl = variant.baseUrl === undefined ? '' : `${variant.baseUrl}?schema=${schema}`;
    const start = () => startServer({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, smtpUrl: '' });

    afterAll(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (variant.baseUrl !== undefined) {
        const client = new pg.Client({ connectionString: variant.baseUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      }
    });

    it('the client resumes after a restart on the same data with nothing lost', async () => {
      let server: ConfabServer = await start();
      const pbFor = (user: RegisteredUser) => {
        const pb = new PocketBase(server.url);
        pb.autoCancellation(false);
        pb.authStore.save(user.pb.authStore.token, user.pb.authStore.record);
        return { ...user, pb };
      };
      const testServerLike = { client: () => new PocketBase(server.url) } as unknown as Parameters<typeof registerUser>[0];
      const ann = await registerUser(testServerLike);
      const bob = await registerUser(testServerLike);
      ann.pb.autoCancellation(false);
      const chat = await createChat(ann, { participants: [bob.record.id] });
      const view: WireMessage[] = [];
      const socket = await authenticatedSocket(server.url, bob.pb.authStore.token);
      await socket.join(chat.id);
      for (let index = 0; index < 5; index += 1) await postMessage(ann, chat.id, `before ${index}`);
      for (let index = 0; index < 5; index += 1) view.push(await socket.nextMessage(chat.id));
      await server.close();
      expect((await socket.closed).code).not.toBe(1000);
      server = await start();
      try {
        const annAgain = pbFor(ann);
        for (let index = 0; index < 5; index += 1) await postMessage(annAgain, chat.id, `after ${index}`);
        const back = await authenticatedSocket(server.url, bob.pb.authStore.token);
        const { replayed, joined } = await back.join(chat.id, view.at(-1)?.seq ?? 0);
        view.push(...replayed);
        expect(joined['last_seq']).toBe(10);
        await postMessage(annAgain, chat.id, 'live after restart');
        view.push(await back.nextMessage(chat.id));
        await back.close();
        expect(viewOf(view)).toEqual(await serverLog(annAgain, chat.id));
        expect(view.map((message) => message.content).slice(-2)).toEqual(['after 4', 'live after restart']);
      } finally {
        await server.close();
      }
    });
  });
});
