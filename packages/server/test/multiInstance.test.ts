import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '../src/index';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { redisAvailable, redisUrl } from './support/redis';
import { authenticatedSocket, type TestSocket, type WireMessage } from './support/wsClient';

/**
 * Two confab-server instances on one PostgreSQL (a fresh schema) and one Redis, as behind a load
 * balancer: they share CONFAB_SECRET, so a token or a ciphertext from one is valid on the other.
 */
const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');
const runnable = postgres !== undefined && (await redisAvailable());

describe.runIf(runnable)('two instances on one PostgreSQL and one Redis', () => {
  const schema = `test_multi_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs = [mkdtempSync(join(tmpdir(), 'confab-a-')), mkdtempSync(join(tmpdir(), 'confab-b-'))];
  const sockets: TestSocket[] = [];
  let instanceA: ConfabServer;
  let instanceB: ConfabServer;

  const on = (server: ConfabServer, user: RegisteredUser): RegisteredUser => {
    const pb = new PocketBase(server.url);
    pb.autoCancellation(false);
    pb.authStore.save(user.pb.authStore.token, user.pb.authStore.record);
    return { ...user, pb };
  };
  const socketOn = async (server: ConfabServer, user: RegisteredUser) => {
    const socket = await authenticatedSocket(server.url, user.pb.authStore.token);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    const databaseUrl = `${postgres?.baseUrl ?? ''}?schema=${schema}`;
    const shared = { port: 0, host: '127.0.0.1', databaseUrl, redisUrl, smtpUrl: '', secret: 'shared-secret-of-the-cluster' };
    instanceA = await startServer({ ...shared, dataDir: dataDirs[0] });
    instanceB = await startServer({ ...shared, dataDir: dataDirs[1] });
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await instanceA?.close();
    await instanceB?.close();
    const client = new pg.Client({ connectionString: postgres?.baseUrl });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  const register = (server: ConfabServer) => registerUser({ client: () => new PocketBase(server.url) } as unknown as Parameters<typeof registerUser>[0]);

  it('delivers a message sent through instance A to a client of instance B, in seq order from both', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceB);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const annOnA = await socketOn(instanceA, ann);
    const bobOnB = await socketOn(instanceB, bob);
    await annOnA.join(chat.id);
    await bobOnB.join(chat.id);
    annOnA.send({ type: 'send_message', chat_id: chat.id, content: 'from A', client_id: 'a-1' });
    expect(await bobOnB.nextMessage(chat.id)).toMatchObject({ content: 'from A', seq: 1, author_id: ann.record.id });
    expect(await annOnA.nextMessage(chat.id)).toMatchObject({ content: 'from A', seq: 1 });
    // Both instances write at once: the sequence stays gapless and each client sees it in order.
    const bobViaB = on(instanceB, bob);
    await Promise.all([
      (async () => { for (let index = 0; index < 15; index += 1) await postMessage(ann, chat.id, `A ${index}`); })(),
      (async () => { for (let index = 0; index < 15; index += 1) await postMessage(bobViaB, chat.id, `B ${index}`); })(),
    ]);
    const seenByBob: WireMessage[] = [];
    const seenByAnn: WireMessage[] = [];
    for (let index = 0; index < 30; index += 1) {
      seenByBob.push(await bobOnB.nextMessage(chat.id));
      seenByAnn.push(await annOnA.nextMessage(chat.id));
    }
    const expectedSeqs = Array.from({ length: 30 }, (_, index) => index + 2);
    expect(seenByBob.map((message) => message.seq)).toEqual(expectedSeqs);
    expect(seenByAnn.map((message) => message.seq)).toEqual(expectedSeqs);
  });

  it('a removal on A cuts the removed user’s socket on B, and a password change on A closes B’s sockets', async () => {
    const ann = await register(instanceA);
    const bob = await register(instanceA);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobOnB = await socketOn(instanceB, bob);
    await bobOnB.join(chat.id);
    await ann.pb.collection('chats').update(chat.id, { 'participants-': bob.record.id });
    expect(await bobOnB.nextOfType('chat_removed', 1000)).toEqual({ type: 'chat_removed', chat_id: chat.id });
    await postMessage(ann, chat.id, 'not for Bob');
    expect(await bobOnB.collect((frame) => frame.type === 'new_message', 300)).toEqual([]);
    await bob.pb.collection('users').update(bob.record.id, { oldPassword: bob.password, password: 'rotated password', passwordConfirm: 'rotated password' });
    expect((await bobOnB.closed).code).toBe(4001);
  });
});
