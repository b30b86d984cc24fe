import { rmSync } from 'node:fs';
import type { WireMessage } from '@confab/client/protocol';
import type { RecordModel } from 'pocketbase';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailFailure, retryDelayMs } from '../src/mail/queue';
import { startServer, type ConfabServer, type ServerOptions } from '../src/index';
import { registerOn, startCluster } from './support/cluster';
import { databaseVariants, postgresUrl } from './support/databases';
import { freePort } from './support/faultInfra';
import { createChat, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { logCapture, type LogCapture } from './support/logCapture';
import { redisAvailable } from './support/redis';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

/**
 * The outbound relay down loses nothing (docs/OPERATIONS.md, Outbound mail): on the real server,
 * both databases and a real SMTP relay (smtp-server) on a port the test opens and closes, every
 * kind of mail is kept in `mail_queue` while nothing listens, the person who acted is told it is
 * queued, and each mail arrives exactly once when the relay is back, after a restart too, and
 * with two instances sharing the queue. 4xx answers are retried, 5xx ones are not.
 */
const variants = await databaseVariants();

/** Retries in tenths of a second instead of 30 s doubling to an hour. */
const fastRetries: ServerOptions = { mailRetryBaseMs: 100, mailRetryMaxMs: 400, mailQueuePollMs: 50 };

interface ReceivedMail {
  to: string;
  messageId: string;
  raw: string;
}

/** What the relay does with a mail to `to` on its `attempt`th try (1-based): accept, or answer an SMTP error. */
type RelayRule = (to: string, attempt: number) => { code: number; message: string } | undefined;

interface Relay {
  received: ReceivedMail[];
  /** Tries per recipient, refused ones included. */
  attempts: Map<string, number>;
  close(): Promise<void>;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** A real SMTP relay on `port` (no TLS, no auth, as on a private network), keeping every mail it took. */
async function startRelay(port: number, rule: RelayRule = () => undefined, delayMs = 0): Promise<Relay> {
  const received: ReceivedMail[] = [];
  const attempts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const to = address.address.toLowerCase();
      const attempt = (attempts.get(to) ?? 0) + 1;
      attempts.set(to, attempt);
      const refusal = rule(to, attempt);
      // 5xx refusals come at RCPT (an unknown mailbox); 4xx ones at the end of DATA (a full queue).
      if (refusal !== undefined && refusal.code >= 500) return callback(smtpError(refusal.code, refusal.message));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const to = session.envelope.rcptTo[0]?.address.toLowerCase() ?? '';
        const refusal = rule(to, attempts.get(to) ?? 1);
        if (refusal !== undefined) return callback(smtpError(refusal.code, refusal.message));
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to, messageId: /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '', raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { received, attempts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A mail's raw text with quoted-printable undone (nodemailer wraps long lines, links among them). */
function quotedPrintableDecoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each Message-ID with how often it arrived. */
function arrivals(relay: Relay): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of relay.received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
  return counts;
}

describe('mail queue parts', () => {
  it('retries 30 s doubling to an hour, with jitter, and tells temporary failures from permanent ones by codes alone', () => {
    const timing = { retryBaseMs: 30_000, retryMaxMs: 3_600_000 };
    expect(retryDelayMs(1, timing, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(2, timing, () => 0.5)).toBe(60_000);
    expect(retryDelayMs(8, timing, () => 0.5)).toBe(3_600_000);
    expect(retryDelayMs(40, timing, () => 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, timing, () => 0)).toBe(22_500);
    expect(retryDelayMs(1, timing, () => 1)).toBe(37_500);

    const refused = Object.assign(new Error("Can't send mail - all recipients were rejected: 550 <bob@example.com> unknown"), {
      code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO',
    });
    expect(mailFailure(refused)).toEqual({ permanent: true, summary: '550 EENVELOPE RCPT TO' });
    expect(mailFailure(Object.assign(new Error('451 try later'), { code: 'EMESSAGE', responseCode: 451, command: 'DATA' }))).toEqual({ permanent: false, summary: '451 EMESSAGE DATA' });
    expect(mailFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ESOCKET', command: 'CONN' }))).toEqual({ permanent: false, summary: 'ESOCKET CONN' });
    expect(mailFailure(new Error('boom'))).toEqual({ permanent: false, summary: 'Error' });
  });
});

describe.each(variants)('mail queue ($name)', (variant) => {
  let testServer: TestServer | undefined;
  let relay: Relay | undefined;
  const sockets: TestSocket[] = [];

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
    await relay?.close();
    relay = undefined;
    await testServer?.close();
    testServer = undefined;
  });

  const call = (server: TestServer, method: string, path: string, user: RegisteredUser | undefined, body?: unknown) =>
    rawRequest(server.url, method, path, { ...(user === undefined ? {} : { token: user.pb.authStore.token }), ...(body === undefined ? {} : { body }) });

  /** Posts as `who` and waits for @email's answer in the chat. */
  async function askEmail(server: TestServer, who: RegisteredUser, chat: RecordModel, text: string): Promise<WireMessage> {
    const socket = await authenticatedSocket(server.url, who.pb.authStore.token);
    sockets.push(socket);
    await socket.join(chat.id);
    await postMessage(who, chat.id, text);
    for (;;) {
      const message = await socket.nextMessage(chat.id, 10_000);
      if (message.author_username === 'email' && message.message_type !== 'email') return message;
    }
  }

  it('keeps an invitation, a password reset, an @email send and a missed-mention mail while the relay is down, says they are queued, and delivers each once when it is back', async () => {
    const port = await freePort();
    let clockOffsetMs = 0;
    const log = logCapture();
    const server = await startTestServer(variant, {
      ...fastRetries,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      now: () => new Date(Date.now() + clockOffsetMs),
      missedMentionSweepMs: 40,
      logger: true,
      logStream: log.stream,
    });
    testServer = server;
    const alice = await registerUser(server, { name: 'Alice' });
    const bob = await registerUser(server, { name: 'Bob' });
    const chat = await createChat(alice, { name: 'Launch', participants: [bob.record.id] });

    // An invitation by e-mail: the same answer as with a relay that works.
    const invited = await call(server, 'POST', '/api/invite-to-chat', alice, { chat_id: chat.id, email: 'invitee@example.org' });
    expect(invited.status).toBe(200);
    expect(invited.body).toEqual({ success: true, status: 'invited', chat_id: chat.id });

    // A password reset: 204 as always (the screen's 'Password reset email sent!').
    const reset = await call(server, 'POST', '/api/collections/users/request-password-reset', undefined, { email: alice.email });
    expect(reset.status).toBe(204);

    // @email: the draft, then `send`, answered with 'queued', not a failure.
    await postMessage(alice, chat.id, 'We launch on Monday at 9.');
    expect((await askEmail(server, alice, chat, '@email send a summary of this chat to carol@example.com')).content).toContain('Nothing is sent yet');
    const sent = await askEmail(server, alice, chat, '@email send');
    expect(sent.content).toContain('Queued “Summary of Launch” to carol@example.com');
    expect(sent.content).toContain('the mail server cannot be reached right now');
    expect(sent.content).toContain('You do not need to send it again.');
    expect(sent.content).not.toMatch(/fail|error/i);
    // The draft is spent: the queue has it, so a second `send` sends nothing more.
    expect((await askEmail(server, alice, chat, '@email send')).content).toContain('no draft waiting');

    // A mention Bob (no session) leaves unread for 10 minutes: the sweep queues its mail.
    await postMessage(alice, chat.id, `@${bob.username} can you check the press kit?`);
    clockOffsetMs += 11 * 60_000;

    const rows = await waitFor('four queued mails', async () => {
      const found = await server.probe.rows('select * from mail_queue order by created');
      return found.length === 4 && found.every((row) => Number(row['attempts']) >= 1 && row['last_error'] !== '') ? found : undefined;
    });
    expect(rows.map((row) => row['kind']).sort()).toEqual(['email_agent', 'invitation', 'missed_mentions', 'password_reset']);
    expect(rows.every((row) => row['status'] === 'pending')).toBe(true);
    expect(await server.server.mailQueueDepth()).toBe(4);
    // At rest the mails are ciphertext: no address, no subject, no reset or join link.
    for (const row of rows) {
      const stored = String(row['mail_encrypted']);
      expect(stored.startsWith('v1:')).toBe(true);
      expect(stored).not.toMatch(/@|reset-password|\/join\/|Launch/);
    }
    expect(rows.map((row) => row['to_domain']).sort()).toEqual(['example.com', 'example.org', 'example.test', 'example.test']);

    // The relay comes back on its port: each mail arrives, once.
    relay = await startRelay(port);
    await waitFor('four delivered mails', () => (relay!.received.length >= 4 ? true : undefined));
    await pause(800);
    const delivered = relay.received;
    expect(delivered.map((mail) => mail.to).sort()).toEqual(['carol@example.com', 'invitee@example.org', alice.email, bob.email].sort());
    expect([...arrivals(relay).values()]).toEqual([1, 1, 1, 1]);
    expect(new Set(delivered.map((mail) => mail.messageId)).size).toBe(4);
    const queuedIds = rows.map((row) => String(row['message_id'])).sort();
    expect(delivered.map((mail) => mail.messageId).sort()).toEqual(queuedIds);
    expect(await server.server.mailQueueDepth()).toBe(0);
    const finished = await server.probe.rows('select status, mail_encrypted, finished_at from mail_queue');
    expect(finished.every((row) => row['status'] === 'sent' && row['mail_encrypted'] === '' && row['finished_at'] !== null)).toBe(true);

    // The reset link still works (its token expires an hour after it was asked for, as before).
    const resetMail = delivered.find((mail) => mail.to === alice.email && mail.raw.includes('reset-password'))?.raw ?? '';
    const token = /reset-password\?token=([A-Za-z0-9_%-]+)/.exec(quotedPrintableDecoded(resetMail))?.[1] ?? '';
    expect(token).not.toBe('');
    const confirmed = await call(server, 'POST', '/api/collections/users/confirm-password-reset', undefined, {
      token: decodeURIComponent(token), password: 'a new password 1', passwordConfirm: 'a new password 1',
    });
    expect(confirmed.status).toBe(204);
    const invitation = delivered.find((mail) => mail.to === 'invitee@example.org')?.raw ?? '';
    expect(invitation).toContain('You are invited to a chat on Confab');
    expect(delivered.find((mail) => mail.to === 'carol@example.com')?.raw).toContain('We launch on Monday at 9.');
    expect(delivered.find((mail) => mail.to === bob.email)?.raw).toContain('can you check the press kit?');

    // The log names mails by id, kind and domain: never an address.
    const lines = log.lines().filter((line) => typeof line['mailId'] === 'string');
    expect(lines.some((line) => line['msg'] === 'mail not sent yet; queued for another attempt')).toBe(true);
    const logged = log.text();
    for (const address of ['carol@example.com', 'invitee@example.org', alice.email, bob.email]) expect(logged).not.toContain(address);
  });

  it('tries a mail the relay answers with 4xx again until it takes it, and gives a 5xx refusal up at once', async () => {
    const port = await freePort();
    const log: LogCapture = logCapture();
    relay = await startRelay(port, (to, attempt) => {
      if (to === 'busy@example.org' && attempt <= 2) return { code: 451, message: '4.3.0 Try again later' };
      if (to === 'nobody@example.org') return { code: 550, message: '5.1.1 No such user here' };
      return undefined;
    });
    const server = await startTestServer(variant, { ...fastRetries, smtpUrl: `smtp://127.0.0.1:${port}`, logger: true, logStream: log.stream });
    testServer = server;
    const alice = await registerUser(server);
    const chat = await createChat(alice, { name: 'Retries' });
    const invite = async (email: string) => {
      const answer = await call(server, 'POST', '/api/invite-to-chat', alice, { chat_id: chat.id, email });
      expect(answer.body).toMatchObject({ status: 'invited' });
    };
    // A relay that takes the mail takes it at the first attempt, within the request.
    await invite('fine@example.org');
    expect(relay.received.map((mail) => mail.to)).toEqual(['fine@example.org']);
    await invite('busy@example.org');
    await invite('nobody@example.org');
    await waitFor('the busy mail', () => (relay!.received.some((mail) => mail.to === 'busy@example.org') ? true : undefined));
    await pause(1_000);
    expect(relay.received.map((mail) => mail.to).sort()).toEqual(['busy@example.org', 'fine@example.org']);
    expect(relay.attempts.get('busy@example.org')).toBe(3);
    // Refused for good: one try, not one a retry interval.
    expect(relay.attempts.get('nobody@example.org')).toBe(1);
    const rows = await server.probe.rows('select kind, status, attempts, last_error, to_domain, mail_encrypted from mail_queue order by created');
    expect(rows.map((row) => `${String(row['status'])} ${Number(row['attempts'])} ${String(row['last_error'])}`.trim()).sort()).toEqual([
      'failed 1 550 EENVELOPE RCPT TO',
      'sent 1',
      'sent 3',
    ]);
    expect(rows.every((row) => row['mail_encrypted'] === '')).toBe(true);
    expect(await server.server.mailQueueDepth()).toBe(0);
    const givenUp = log.lines().find((line) => line['msg'] === 'queued mail refused by the relay; given up');
    expect(givenUp).toMatchObject({ kind: 'invitation', toDomain: 'example.org', error: '550 EENVELOPE RCPT TO' });
    expect(log.text()).not.toContain('nobody@example.org');
    expect(log.text()).not.toContain('busy@example.org');
  });

  it('gives a mail up, logged by id and domain, when its retries run out', async () => {
    const port = await freePort();
    const log = logCapture();
    const server = await startTestServer(variant, { ...fastRetries, mailRetryForMs: 600, smtpUrl: `smtp://127.0.0.1:${port}`, logger: true, logStream: log.stream });
    testServer = server;
    const alice = await registerUser(server);
    const chat = await createChat(alice);
    await call(server, 'POST', '/api/invite-to-chat', alice, { chat_id: chat.id, email: 'late@example.net' });
    const row = await waitFor('the mail given up', async () => {
      const [found] = await server.probe.rows('select status, attempts, mail_encrypted from mail_queue');
      return found?.['status'] === 'failed' ? found : undefined;
    });
    expect(Number(row['attempts'])).toBeGreaterThan(1);
    expect(row['mail_encrypted']).toBe('');
    expect(await server.server.mailQueueDepth()).toBe(0);
    // The relay coming back later sends nothing: the mail was given up.
    relay = await startRelay(port);
    await pause(500);
    expect(relay.received).toEqual([]);
    expect(log.lines().find((line) => line['msg'] === 'queued mail still not sent when its retries ran out; given up')).toMatchObject({ kind: 'invitation', toDomain: 'example.net' });
    expect(log.text()).not.toContain('late@example.net');
  });

  it('replaces a reset mail not sent yet by the newer one, whose link works', async () => {
    const port = await freePort();
    const server = await startTestServer(variant, { ...fastRetries, smtpUrl: `smtp://127.0.0.1:${port}` });
    testServer = server;
    const alice = await registerUser(server);
    for (let index = 0; index < 2; index += 1) {
      expect((await call(server, 'POST', '/api/collections/users/request-password-reset', undefined, { email: alice.email })).status).toBe(204);
    }
    const statuses = await server.probe.rows('select status from mail_queue order by created');
    expect(statuses.map((row) => row['status'])).toEqual(['superseded', 'pending']);
    relay = await startRelay(port);
    await waitFor('the reset mail', () => (relay!.received.length >= 1 ? true : undefined));
    await pause(500);
    expect(relay.received).toHaveLength(1);
    const token = /reset-password\?token=([A-Za-z0-9_%-]+)/.exec(quotedPrintableDecoded(relay.received[0]?.raw ?? ''))?.[1] ?? '';
    const confirmed = await call(server, 'POST', '/api/collections/users/confirm-password-reset', undefined, {
      token: decodeURIComponent(token), password: 'a new password 2', passwordConfirm: 'a new password 2',
    });
    expect(confirmed.status).toBe(204);
  });

  it('sends mail queued before a restart once the relay and the server are back', async () => {
    const port = await freePort();
    const server = await startTestServer(variant, { ...fastRetries, smtpUrl: `smtp://127.0.0.1:${port}` });
    const alice = await registerUser(server);
    const chat = await createChat(alice);
    await call(server, 'POST', '/api/invite-to-chat', alice, { chat_id: chat.id, email: 'after.restart@example.org' });
    expect(await server.server.mailQueueDepth()).toBe(1);
    await server.server.close();
    let again: ConfabServer | undefined;
    try {
      relay = await startRelay(port);
      await pause(300);
      expect(relay.received).toEqual([]);
      // The same data dir (its secret decrypts the queue) and database.
      again = await startServer({
        port: 0, host: '127.0.0.1', dataDir: server.dataDir, databaseUrl: server.databaseUrl, inboundSmtp: 'off', ...fastRetries, smtpUrl: `smtp://127.0.0.1:${port}`,
      });
      await waitFor('the mail after the restart', () => (relay!.received.length >= 1 ? true : undefined));
      await pause(500);
      expect(relay.received.map((mail) => mail.to)).toEqual(['after.restart@example.org']);
      expect(await again.mailQueueDepth()).toBe(0);
    } finally {
      await again?.close();
      await server.probe.close();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  });
});

const postgres = variants.find((variant) => variant.name === 'postgres');
const withRedis = postgres !== undefined && (await redisAvailable());

describe.runIf(withRedis)('mail queue across instances (postgres)', () => {
  let relay: Relay | undefined;
  afterAll(async () => {
    await relay?.close();
  });

  it('sends each mail once when two instances share the queue and the relay comes back', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const cluster = await startCluster(postgres?.baseUrl ?? postgresUrl, {
      secret: 'mail-queue-cluster',
      ...fastRetries,
      mailRetryBaseMs: 50,
      mailRetryMaxMs: 100,
      mailQueuePollMs: 20,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      invitationsPerUserPerHour: 1000,
      invitationsPerChatPerHour: 1000,
      inboundSmtp: 'off',
    });
    try {
      const alice = await registerOn(cluster.a);
      const chat = await alice.pb.collection('chats').create({ name: 'Both', description: '', participants: [] });
      const addresses = Array.from({ length: 30 }, (_, index) => `guest${index}@example.org`);
      for (const [index, email] of addresses.entries()) {
        const server = index % 2 === 0 ? cluster.a : cluster.b;
        const answer = await rawRequest(server.url, 'POST', '/api/invite-to-chat', { token: alice.pb.authStore.token, body: { chat_id: chat.id, email } });
        expect(answer.body).toMatchObject({ status: 'invited' });
      }
      expect(await cluster.a.mailQueueDepth()).toBe(30);
      expect(await cluster.b.mailQueueDepth()).toBe(30);
      // Slow acceptance widens the window in which both instances' workers look at the same rows.
      relay = await startRelay(port, () => undefined, 20);
      await waitFor('thirty mails', () => (relay!.received.length >= 30 ? true : undefined), 30_000);
      await pause(1_000);
      expect(relay.received).toHaveLength(30);
      expect([...arrivals(relay).values()].every((count) => count === 1)).toBe(true);
      expect(relay.received.map((mail) => mail.to).sort()).toEqual([...addresses].sort());
      expect(await cluster.a.mailQueueDepth()).toBe(0);
    } finally {
      await cluster.close();
    }
  });
});
