/**
 * Fault matrix, row 1's narrow window (docs/OPERATIONS.md): an instance that stored a message and
 * died before publishing it. The kill test hits that window only by chance, so here it is made on
 * purpose: instance X stores the message but shares no bus with Y (as if it died right after its
 * commit); the sender's retry with the same client id, answered by Y, publishes it again, and the
 * other participants' sockets on Y get it live, once, in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ConfabServer } from '../../src/index';
import { registerOn, signedInOn } from '../support/cluster';
import { databaseVariants } from '../support/databases';
import { dropSchema } from '../support/faultInfra';
import { createChat, postMessage } from '../support/fixtures';
import { redisAvailable, redisUrl } from '../support/redis';
import { authenticatedSocket, messageOf, type TestSocket } from '../support/wsClient';

const postgres = (await databaseVariants()).find((variant) => variant.name === 'postgres');
const available = postgres !== undefined && (await redisAvailable());

describe.skipIf(!available)('a send stored by an instance that died before publishing it', () => {
  const schema = `test_retried_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs = [mkdtempSync(join(tmpdir(), 'confab-x-')), mkdtempSync(join(tmpdir(), 'confab-y-'))];
  const servers: ConfabServer[] = [];
  const sockets: TestSocket[] = [];

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    for (const server of servers) await server.close();
    await dropSchema(postgres!.baseUrl!, schema);
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it('reaches the other participants when the retry is answered by another instance', async () => {
    const shared = { port: 0, host: '127.0.0.1', databaseUrl: `${postgres!.baseUrl}?schema=${schema}`, smtpUrl: '', secret: `retried-send-${schema}-0123456789abcdef` };
    // X's bus is its own (no Redis): what it publishes never leaves it, as if it had died.
    const x = await startServer({ ...shared, dataDir: dataDirs[0], redisUrl: '' });
    servers.push(x);
    const y = await startServer({ ...shared, dataDir: dataDirs[1], redisUrl });
    servers.push(y);
    const ann = await registerOn(y);
    const bob = await registerOn(y);
    const chat = await createChat(ann, { participants: [bob.record.id] });
    const bobOnY = await authenticatedSocket(y.url, bob.pb.authStore.token);
    sockets.push(bobOnY);
    await bobOnY.join(chat.id, 0);
    await postMessage(ann, chat.id, 'before');
    expect(messageOf(await bobOnY.nextOfType('new_message')).seq).toBe(1);

    const annOnX = signedInOn(x, ann);
    const stored = await annOnX.pb.collection('messages').create({ chat: chat.id, content: 'stored, never published', client_id: 'retry-me' });
    const retried = await ann.pb.collection('messages').create({ chat: chat.id, content: 'stored, never published', client_id: 'retry-me' });
    expect(retried.id).toBe(stored.id);

    const live = await bobOnY.nextOfType('new_message', 5_000);
    expect(messageOf(live)).toMatchObject({ seq: 2, content: 'stored, never published' });
    expect(live['client_id']).toBe('retry-me');
    // Retried again: nothing more reaches Bob (rooms drop a seq they delivered).
    await ann.pb.collection('messages').create({ chat: chat.id, content: 'stored, never published', client_id: 'retry-me' });
    await postMessage(ann, chat.id, 'after');
    expect(messageOf(await bobOnY.nextOfType('new_message')).seq).toBe(3);
  });
});
