import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/store/database';
import { formatTimestamp, newRecordId, randomAlphanumeric } from '../src/store/ids';
import { hashPassword } from '../src/services/passwords';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, postMessage, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { authenticatedSocket, type TestSocket } from './support/wsClient';

/**
 * Findings 4, 7, 8, 9, 10 and 11 of the security review (docs/SECURITY.md): accounts and the
 * limits on signing up, signing in and posting. Every case runs on SQLite and PostgreSQL.
 */
const variants = await databaseVariants();

function tokenFromMail(mail: string): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail);
  if (match?.[1] === undefined) throw new Error(`no reset link in mail:\n${mail}`);
  return decodeURIComponent(match[1]);
}

const registration = (username: string, extra: Record<string, unknown> = {}) => ({
  username,
  email: `${username.toLowerCase()}@example.test`,
  password: 'correct horse battery',
  passwordConfirm: 'correct horse battery',
  ...extra,
});

describe.each(variants)('account security ($name)', (variant) => {
  const servers: TestServer[] = [];
  const sockets: TestSocket[] = [];
  const start = async (options: Parameters<typeof startTestServer>[1] = {}) => {
    const testServer = await startTestServer(variant, options);
    servers.push(testServer);
    return testServer;
  };

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  });

  afterAll(async () => {
    await Promise.all(servers.map((testServer) => testServer.close()));
  });

  it('makes exactly one of six simultaneous first registrations the admin', async () => {
    const testServer = await start();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) => rawRequest(testServer.url, 'POST', '/api/collections/users/records', { body: registration(`founder_${index}`) })),
    );
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const admins = await testServer.probe.rows('select username from users where is_admin = 1');
    expect(admins).toHaveLength(1);
    // Later accounts are never admins, and the answer of each said so truthfully.
    expect(results.filter((result) => (result.body as { is_admin: boolean }).is_admin)).toHaveLength(1);
    const late = await registerUser(testServer);
    expect(late.record['is_admin']).toBe(false);
  });

  describe('with one server', () => {
    let testServer: TestServer;
    let dana: RegisteredUser;

    beforeAll(async () => {
      testServer = await start({ publicUrl: 'https://confab.example' });
      dana = await registerUser(testServer, { email: 'dana.security@example.test' });
    });

    it('ends every outstanding reset link when the password is changed', async () => {
      await testServer.client().collection('users').requestPasswordReset(dana.email);
      const token = tokenFromMail(testServer.outboxMails().at(-1) ?? '');
      await dana.pb.collection('users').update(dana.record.id, { oldPassword: dana.password, password: 'changed password 1', passwordConfirm: 'changed password 1' });
      dana.password = 'changed password 1';
      const stale = await failureOf(() => testServer.client().collection('users').confirmPasswordReset(token, 'taken over 1', 'taken over 1'));
      expect(stale.status).toBe(400);
      expect(stale.response['data']).toMatchObject({ token: { code: 'validation_invalid_token' } });
      const unused = await testServer.probe.rows('select id from password_reset_tokens where user_id = $1 and used_at is null', [dana.record.id]);
      expect(unused).toHaveLength(0);
      await dana.pb.collection('users').authWithPassword(dana.username, dana.password);
    });

    it('never takes soft_registered, signup_completed, is_admin or an agent type from a client', async () => {
      const created = await rawRequest(testServer.url, 'POST', '/api/collections/users/records', {
        body: registration('sneaky_sam', { soft_registered: true, signup_completed: false, is_admin: true, verified: true }),
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ soft_registered: false, signup_completed: false, is_admin: false, verified: false, type: 'user' });
      const [row] = await testServer.probe.rows('select soft_registered, signup_completed, is_admin from users where username = $1', ['sneaky_sam']);
      expect(row).toEqual({ soft_registered: 0, signup_completed: 0, is_admin: 0 });

      const sam = testServer.client();
      await sam.collection('users').authWithPassword('sneaky_sam', 'correct horse battery');
      // complete-account is for temporary accounts only: a full account cannot use it to change
      // its e-mail and username without its password, whatever it claims about itself.
      await sam.collection('users').update(sam.authStore.record?.id ?? '', { signup_completed: false, soft_registered: true });
      const [after] = await testServer.probe.rows('select soft_registered, signup_completed from users where username = $1', ['sneaky_sam']);
      expect(after).toEqual({ soft_registered: 0, signup_completed: 0 });
      const takeover = await rawRequest(testServer.url, 'POST', '/api/complete-account', {
        token: sam.authStore.token,
        body: { email: 'new-owner@example.test', username: 'new_owner', password: 'whatever 123' },
      });
      expect(takeover.status).toBe(403);
      expect(await testServer.probe.rows('select id from users where username = $1', ['new_owner'])).toHaveLength(0);
    });

    it.each(['developer-agent', 'confab-agent', 'other', 'admin'])('refuses to create a user of type %s through the record API', async (type) => {
      const before = await testServer.probe.count('users');
      // Even the server's admin (Dana is the first account) cannot.
      const created = await rawRequest(testServer.url, 'POST', '/api/collections/users/records', {
        token: dana.pb.authStore.token,
        body: registration(`typed_${type.replace(/-/g, '_')}`, { type }),
      });
      expect(created.status).toBe(400);
      expect((created.body as { data: Record<string, unknown> }).data['type']).toMatchObject({ code: 'validation_invalid_value' });
      expect(await testServer.probe.count('users')).toBe(before);
    });

    it('never lets an agent sign in with a password', async () => {
      const database = await openDatabase({ databaseUrl: testServer.databaseUrl || undefined, dataDir: testServer.dataDir });
      const now = formatTimestamp(new Date());
      try {
        await database.db
          .insertInto('users')
          .values({
            id: newRecordId(), username: 'echo_bot', name: 'Echo Bot', email: '', email_visibility: 0, verified: 0,
            password_hash: await hashPassword('agent password 1'), token_key: randomAlphanumeric(50), is_admin: 0,
            type: 'developer-agent', description: '', created_by: dana.record.id, site_wide_available: 1, dev_room_id: null,
            api_key_hash: null, openai_api_key_encrypted: '', gemini_api_key_encrypted: '', soft_registered: 0, signup_completed: 0,
            created: now, updated: now,
          })
          .execute();
      } finally {
        await database.close();
      }
      const refused = await failureOf(() => testServer.client().collection('users').authWithPassword('echo_bot', 'agent password 1'));
      expect(refused.status).toBe(400);
    });

    it('counts failed logins per account, whichever identity names it', async () => {
      const target = await registerUser(testServer, { email: 'throttled.target@example.test' });
      const identities = [target.username, target.username.toUpperCase(), target.email, target.record.id];
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const identity = identities[attempt % identities.length] ?? target.username;
        const failure = await failureOf(() => testServer.client().collection('users').authWithPassword(identity, 'wrong guess'));
        expect(failure.status).toBe(400);
      }
      for (const identity of identities) {
        const limited = await failureOf(() => testServer.client().collection('users').authWithPassword(identity, target.password));
        expect(limited.status).toBe(429);
      }
      // Another account from the same address is unaffected.
      await testServer.client().collection('users').authWithPassword(dana.username, dana.password);
    });

    it.each(['admin', 'Root', 'ADMINISTRATOR', 'system', 'confab', 'email', 'Deep', 'browse', 'data', 'drops', 'user_k3x9q0w2ab', 'User_anything'])(
      'reserves the username %s',
      async (username) => {
        const created = await rawRequest(testServer.url, 'POST', '/api/collections/users/records', { body: registration(username) });
        expect(created.status).toBe(400);
        expect((created.body as { data: Record<string, unknown> }).data['username']).toMatchObject({
          code: 'validation_username_reserved',
          message: 'This username is reserved. Please choose another.',
        });
        const renamed = await failureOf(() => dana.pb.collection('users').update(dana.record.id, { username }));
        expect(renamed.status).toBe(400);
      },
    );

    it('strips controls, NUL and bidi overrides from display names and chat names', async () => {
      const created = await rawRequest(testServer.url, 'POST', '/api/collections/users/records', {
        body: registration('mallory_names', { name: 'Mal\u0000lory\u202E\u200Bnimda\u0007\r\n' }),
      });
      expect(created.status).toBe(200);
      expect((created.body as { name: string }).name).toBe('Mallorynimda');
      await dana.pb.collection('users').update(dana.record.id, { name: '\u2066Dana\u2069 \u200FD.' });
      const [row] = await testServer.probe.rows('select name from users where id = $1', [dana.record.id]);
      expect(row?.['name']).toBe('Dana D.');
      const chat = await createChat(dana, { name: 'Plans\u202Etxt.exe', description: 'a\u0000b' });
      expect(chat['name']).toBe('Planstxt.exe');
      expect(chat['description']).toBe('ab');
      const visible = await dana.pb.collection('users').update(dana.record.id, { name: 'Zoë Ünal 日本' });
      expect(visible['name']).toBe('Zoë Ünal 日本');
    });
  });

  it('limits sign-ups per address per hour with a clear 429', async () => {
    let now = Date.UTC(2026, 10, 26, 10, 0, 0);
    const testServer = await start({ signupsPerIpPerHour: 3, now: () => new Date(now) });
    for (let index = 0; index < 3; index += 1) {
      expect((await rawRequest(testServer.url, 'POST', '/api/collections/users/records', { body: registration(`signup_${index}`) })).status).toBe(200);
    }
    // A refused attempt (a taken name) does not spend the allowance; the fourth new account does not fit.
    const limited = await rawRequest(testServer.url, 'POST', '/api/collections/users/records', { body: registration('signup_3') });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ status: 429, message: 'Too many accounts were created from your address. Please try again later.', data: {} });
    // People only: the server's built-in agents are users too.
    const people = await testServer.probe.rows("select count(*) as count from users where type = 'user'");
    expect(Number(people[0]?.['count'])).toBe(3);
    now += 60 * 60 * 1000;
    expect((await rawRequest(testServer.url, 'POST', '/api/collections/users/records', { body: registration('signup_3') })).status).toBe(200);
  });

  it('limits messages per user across HTTP and the socket together', async () => {
    // A fixed clock: the bucket never refills, so the burst (twice the rate) is exactly what fits.
    const testServer = await start({ messagesPerUserPerSecond: 2, now: () => new Date(Date.UTC(2026, 10, 26, 10, 0, 0)) });
    const erin = await registerUser(testServer);
    const chat = await createChat(erin, { name: 'Flood' });
    const socket = await authenticatedSocket(testServer.url, erin.pb.authStore.token);
    sockets.push(socket);
    socket.send({ type: 'join_chat', chat_id: chat.id });
    await socket.next((frame) => frame.type === 'joined');
    await postMessage(erin, chat.id, 'http 1');
    await postMessage(erin, chat.id, 'http 2');
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'socket 1', client_id: 'c-1' });
    await socket.next((frame) => frame.type === 'new_message' && frame['client_id'] === 'c-1');
    await postMessage(erin, chat.id, 'http 3');
    // The burst of 4 is spent: both ways are refused now, each with its own clear answer.
    const refused = await failureOf(() => postMessage(erin, chat.id, 'http 4'));
    expect(refused.status).toBe(429);
    expect(refused.response['message']).toBe('You are sending messages too fast. Please wait a moment and try again.');
    socket.send({ type: 'send_message', chat_id: chat.id, content: 'socket 2', client_id: 'c-2' });
    const error = await socket.next((frame) => frame.type === 'error');
    expect(error).toMatchObject({ code: 'rate_limited', ref: 'c-2', message: 'You are sending messages too fast. Please wait a moment and try again.' });
    expect(await testServer.probe.count('messages')).toBe(4);
  });
});
