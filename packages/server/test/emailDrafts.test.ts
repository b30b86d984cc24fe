/**
 * @email drafts in the database (migration 011), on both databases: a draft shown by one
 * instance is confirmed on another or after a restart, and is sent exactly once however many
 * confirmations race for it.
 */
import type { WireMessage } from '@confab/client/protocol';
import PocketBase from 'pocketbase';
import type { RecordModel } from 'pocketbase';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailDrafts } from '../src/agents/hosted/email';
import { startServer, type ConfabServer } from '../src/index';
import { ContentCipher } from '../src/services/contentCipher';
import { openDatabase, type ConfabDatabase } from '../src/store/database';
import { databaseVariants } from './support/databases';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

const variants = await databaseVariants();

describe.each(variants)('@email drafts in the database ($name)', (variant) => {
  let testServer: TestServer;
  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let chat: RecordModel;
  /** Two connections to the server's database: two instances' views of it. */
  let first: ConfabDatabase;
  let second: ConfabDatabase;
  const cipher = new ContentCipher('a-secret-for-the-drafts-test', 'message-content');

  const open = () => openDatabase({ databaseUrl: testServer.databaseUrl === '' ? undefined : testServer.databaseUrl, dataDir: testServer.dataDir });
  const draft = (to: string, expiresAtMs: number) => ({ to, subject: `To ${to}`, text: 'Hello', expiresAtMs });

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    alice = await registerUser(testServer, { name: 'Alice' });
    bob = await registerUser(testServer, { name: 'Bob' });
    chat = await createChat(alice, { name: 'Drafts', participants: [bob.record.id] });
    first = await open();
    second = await open();
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await testServer?.close();
  });

  it('keeps one waiting draft per chat and asker, encrypted, until it expires', async () => {
    const drafts = new EmailDrafts(first, cipher);
    const elsewhere = new EmailDrafts(second, cipher);
    await drafts.put(chat.id, alice.record.id, draft('carol@example.com', 10_000), 1_000);
    const stored = await testServer.probe.rows('select draft_encrypted, claimed_at from email_drafts where chat = $1', [chat.id]);
    expect(stored).toHaveLength(1);
    expect(String(stored[0]?.['draft_encrypted'])).not.toContain('carol@example.com');

    // Another asker takes nothing; a newer draft replaces the older one.
    expect(await elsewhere.take(chat.id, bob.record.id, 2_000)).toBeUndefined();
    await drafts.put(chat.id, alice.record.id, draft('dave@example.com', 10_000), 2_000);
    const taken = await elsewhere.take(chat.id, alice.record.id, 3_000);
    expect(taken).toMatchObject({ to: 'dave@example.com', subject: 'To dave@example.com', text: 'Hello', expiresAtMs: 10_000 });
    expect(await drafts.take(chat.id, alice.record.id, 3_000)).toBeUndefined();

    // An expired draft is never taken.
    await drafts.put(chat.id, alice.record.id, draft('erin@example.com', 10_000), 4_000);
    expect(await elsewhere.take(chat.id, alice.record.id, 10_000)).toBeUndefined();

    // A released draft (certainly not sent) waits again, once.
    await drafts.put(chat.id, alice.record.id, draft('frank@example.com', 20_000), 11_000);
    const held = await drafts.take(chat.id, alice.record.id, 12_000);
    expect(held?.to).toBe('frank@example.com');
    await held?.release();
    expect((await elsewhere.take(chat.id, alice.record.id, 13_000))?.to).toBe('frank@example.com');
    expect(await drafts.take(chat.id, alice.record.id, 13_000)).toBeUndefined();
  });

  it('gives a draft to exactly one of many confirmations racing on two instances', async () => {
    for (let round = 0; round < 5; round += 1) {
      const now = 100_000 + round * 1_000;
      await new EmailDrafts(first, cipher).put(chat.id, bob.record.id, draft(`round${round}@example.com`, now + 60_000), now);
      const racers = Array.from({ length: 8 }, (_, index) => new EmailDrafts(index % 2 === 0 ? first : second, cipher));
      const results = await Promise.all(racers.map((racer) => racer.take(chat.id, bob.record.id, now + 1)));
      expect(results.filter((result) => result !== undefined).map((result) => result?.to)).toEqual([`round${round}@example.com`]);
    }
  });
});

describe.each(variants)('@email confirmed on another instance and after a restart ($name)', (variant) => {
  let testServer: TestServer;
  let other: ConfabServer | undefined;
  let alice: RegisteredUser;
  let chat: RecordModel;
  const sockets: TestSocket[] = [];

  /** Alice's client on `server` (the same token: the instances share the data dir's secret). */
  const aliceOn = (server: { url: string }): RegisteredUser => {
    const pb = new PocketBase(server.url);
    pb.autoCancellation(false);
    pb.authStore.save(alice.pb.authStore.token, alice.pb.authStore.record);
    return { ...alice, pb };
  };

  /** Posts as Alice through `server` and waits there for @email's answer. */
  async function ask(server: { url: string }, text: string): Promise<WireMessage> {
    const socket = await authenticatedSocket(server.url, alice.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    await postMessage(aliceOn(server), chat.id, text);
    for (;;) {
      const message = await socket.nextMessage(chat.id, 10_000);
      if (message.author_username === 'email' && message.message_type !== 'email') return message;
    }
  }

  /** Another instance on the same database and data directory. */
  const startInstance = () =>
    startServer({ port: 0, host: '127.0.0.1', dataDir: testServer.dataDir, databaseUrl: testServer.databaseUrl, smtpUrl: '', inboundSmtp: 'off', signupsPerIpPerHour: 10_000 });

  beforeAll(async () => {
    testServer = await startTestServer(variant);
    alice = await registerUser(testServer, { name: 'Alice' });
    chat = await createChat(alice, { name: 'Launch' });
  });

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await other?.close();
    await testServer?.close();
  });

  it('sends a draft shown by one instance once, when confirmed on another', async () => {
    await postMessage(alice, chat.id, 'We launch on Monday at 9.');
    const shown = await ask(testServer, '@email send a summary of this chat to carol@example.com');
    expect(shown.content).toContain('Nothing is sent yet');
    expect(testServer.outboxMails()).toHaveLength(0);

    other = await startInstance();
    const sent = await ask(other, '@email send');
    expect(sent.content).toContain('Sent');
    expect(testServer.outboxMails()).toHaveLength(1);
    expect(testServer.outboxMails()[0]).toContain('To: carol@example.com');
    expect(testServer.outboxMails()[0]).toContain('We launch on Monday at 9.');

    // Neither instance sends it again.
    expect((await ask(testServer, '@email send')).content).toContain('no draft waiting');
    expect((await ask(other, '@email send')).content).toContain('no draft waiting');
    expect(testServer.outboxMails()).toHaveLength(1);
  });

  it('keeps a draft across a restart of the instance that showed it', async () => {
    const before = testServer.outboxMails().length;
    expect((await ask(other!, '@email send a summary of this chat to dave@example.com')).content).toContain('Nothing is sent yet');
    await other!.close();
    other = await startInstance();
    expect((await ask(other, '@email send')).content).toContain('Sent');
    const mails = testServer.outboxMails().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: dave@example.com');
  });
});
