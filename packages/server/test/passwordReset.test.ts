import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { failureOf, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';

const variants = await databaseVariants();

/** The reset token as mailed: the link in the newest outbox .eml. */
function tokenFromMail(mail: string): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail);
  if (match?.[1] === undefined) throw new Error(`no reset link in mail:\n${mail}`);
  return decodeURIComponent(match[1]);
}

describe.each(variants)('password reset and rate limits ($name)', (variant) => {
  let testServer: TestServer;
  let dana: RegisteredUser;
  /** The server's clock runs this far ahead of real time, so expiry can be tested. */
  let clockOffsetMs = 0;

  beforeAll(async () => {
    testServer = await startTestServer(variant, {
      publicUrl: 'https://confab.example',
      now: () => new Date(Date.now() + clockOffsetMs),
    });
    dana = await registerUser(testServer, { email: 'dana@example.test' });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  it('answers 204 for known and unknown addresses alike, mailing only the known one', async () => {
    const before = testServer.outboxMails().length;
    await testServer.client().collection('users').requestPasswordReset('nobody@example.test');
    expect(testServer.outboxMails()).toHaveLength(before);
    const response = await rawRequest(testServer.url, 'POST', '/api/collections/users/request-password-reset', {
      body: { email: 'DANA@example.test' },
    });
    expect(response.status).toBe(204);
    const mails = testServer.outboxMails();
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1) ?? '';
    expect(mail).toContain('To: dana@example.test');
    expect(mail).toContain('https://confab.example/reset-password?token=');
    const stored = await testServer.probe.rows('select token_hash from password_reset_tokens');
    expect(stored.map((row) => row['token_hash'])).not.toContain(tokenFromMail(mail));
  });

  it('resets once with the mailed token, kills older auth tokens and the old password', async () => {
    const signedIn = dana.pb;
    await testServer.client().collection('users').requestPasswordReset(dana.email);
    const token = tokenFromMail(testServer.outboxMails().at(-1) ?? '');
    const mismatch = await failureOf(() =>
      testServer.client().collection('users').confirmPasswordReset(token, 'new password 1', 'new password 2'),
    );
    expect(mismatch.response['data']).toMatchObject({ passwordConfirm: { code: 'validation_values_mismatch' } });
    await testServer.client().collection('users').confirmPasswordReset(token, 'new secret', 'new secret');
    const reused = await failureOf(() => testServer.client().collection('users').confirmPasswordReset(token, 'another1', 'another1'));
    expect(reused.status).toBe(400);
    expect(reused.response['data']).toMatchObject({ token: { code: 'validation_invalid_token' } });
    expect((await failureOf(() => signedIn.collection('users').authRefresh())).status).toBe(401);
    const chats = await rawRequest(testServer.url, 'GET', '/api/collections/chats/records', { token: signedIn.authStore.token });
    expect(chats.status).toBe(200);
    expect((chats.body as { items: unknown[] }).items).toEqual([]);
    const oldPassword = await failureOf(() => testServer.client().collection('users').authWithPassword(dana.username, dana.password));
    expect(oldPassword.status).toBe(400);
    const fresh = testServer.client();
    await fresh.collection('users').authWithPassword(dana.email, 'new secret');
    expect(fresh.authStore.record?.id).toBe(dana.record.id);
    dana.password = 'new secret';
  });

  it('invalidates an older token when a new one is requested, and rejects forged tokens', async () => {
    await testServer.client().collection('users').requestPasswordReset(dana.email);
    const older = tokenFromMail(testServer.outboxMails().at(-1) ?? '');
    await testServer.client().collection('users').requestPasswordReset(dana.email);
    const newer = tokenFromMail(testServer.outboxMails().at(-1) ?? '');
    const stale = await failureOf(() => testServer.client().collection('users').confirmPasswordReset(older, 'password9', 'password9'));
    expect(stale.response['data']).toMatchObject({ token: { code: 'validation_invalid_token' } });
    const forged = await failureOf(() => testServer.client().collection('users').confirmPasswordReset('forged', 'password9', 'password9'));
    expect(forged.status).toBe(400);
    const short = await failureOf(() => testServer.client().collection('users').confirmPasswordReset(newer, '12345', '12345'));
    expect(short.response['data']).toMatchObject({ password: { code: 'validation_length_out_of_range' } });
    await testServer.client().collection('users').confirmPasswordReset(newer, '123456', '123456');
    dana.password = '123456';
  });

  it('answers 429 after repeated failed logins for one account and IP', async () => {
    const target = await registerUser(testServer);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const failure = await failureOf(() => testServer.client().collection('users').authWithPassword(target.username, 'wrong guess'));
      expect(failure.status).toBe(400);
    }
    const limited = await failureOf(() => testServer.client().collection('users').authWithPassword(target.username, target.password));
    expect(limited).toEqual({
      status: 429,
      response: { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.', data: {} },
    });
    const other = testServer.client();
    await other.collection('users').authWithPassword(dana.username, dana.password);
    expect(other.authStore.isValid).toBe(true);
  });

  it('rejects a reset token after its hour has passed', async () => {
    await testServer.client().collection('users').requestPasswordReset(dana.email);
    const token = tokenFromMail(testServer.outboxMails().at(-1) ?? '');
    clockOffsetMs += 61 * 60 * 1000;
    const expired = await failureOf(() => testServer.client().collection('users').confirmPasswordReset(token, 'too late 1', 'too late 1'));
    expect(expired.response['data']).toMatchObject({ token: { code: 'validation_invalid_token' } });
  });
});
