/**
 * The server's own log, captured while secrets travel through it: mailed reset and invitation
 * links, share-link tokens in paths, temporary passwords and file tokens in queries, passwords
 * in bodies. None may appear in the log; the mails in the outbox keep their links.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseVariants } from './support/databases';
import { createChat, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { logCapture } from './support/logCapture';

const variants = await databaseVariants();

function linkToken(mail: string, pattern: RegExp): string {
  const match = pattern.exec(mail);
  if (match?.[1] === undefined) throw new Error(`no link matching ${String(pattern)} in mail:\n${mail}`);
  return match[1];
}

describe.each(variants)('log redaction ($name)', (variant) => {
  let testServer: TestServer;
  let log: ReturnType<typeof logCapture>;
  let webDir: string;
  let erin: RegisteredUser;

  beforeAll(async () => {
    log = logCapture();
    // A built app, so SPA paths (/join/…, /complete-signup?…) are served as pages, as in production.
    webDir = mkdtempSync(join(tmpdir(), 'confab-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Confab</title>');
    testServer = await startTestServer(variant, { logger: true, logStream: log.stream, webDir });
    erin = await registerUser(testServer, { username: 'erin_logs', email: 'erin@example.test' });
  });

  afterAll(async () => {
    await testServer?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  /** Requests are logged when they complete, just after the answer: wait for all of them. */
  async function completedRequests(count: number): Promise<void> {
    const deadline = Date.now() + 5000;
    while (log.lines().filter((line) => line['msg'] === 'request completed').length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('logs no token or password of any request or mail, while the outbox mails keep their links', async () => {
    const newPassword = 'brand new hunter2 password';
    const temporaryPassword = 'TempSecretPassword9';

    await testServer.client().collection('users').requestPasswordReset(erin.email);
    const resetMail = testServer.outboxMails().at(-1) ?? '';
    const resetToken = linkToken(resetMail, /\/reset-password\?token=([A-Za-z0-9._~%-]+)/);

    const chat = await createChat(erin, { name: 'Logged chat' });
    const invited = await rawRequest(testServer.url, 'POST', '/api/invite-to-chat', {
      token: erin.pb.authStore.token,
      body: { chat_id: chat.id, email: 'stranger@elsewhere.test' },
    });
    expect(invited.status).toBe(200);
    const invitationMail = testServer.outboxMails().at(-1) ?? '';
    const invitationToken = linkToken(invitationMail, /\/join\/([A-Za-z0-9._~%-]+)/);

    const shared = await rawRequest(testServer.url, 'POST', `/api/create-share-link/${chat.id}`, { token: erin.pb.authStore.token, body: {} });
    expect(shared.status).toBe(200);
    const shareToken = linkToken((shared.body as { share_url: string }).share_url, /\/join\/([A-Za-z0-9._~%-]+)/);
    const fileToken = ((await rawRequest(testServer.url, 'POST', '/api/files/token', { token: erin.pb.authStore.token })).body as { token: string }).token;

    const requests: [string, string, unknown?][] = [
      ['GET', `/reset-password?token=${resetToken}`],
      ['GET', `/join/${invitationToken}`],
      ['GET', `/join/${shareToken}?from=mail`],
      ['GET', `/complete-signup?user_id=x&chat_id=y&temp_password=${temporaryPassword}`],
      ['GET', `/api/invitation/${shareToken}`],
      ['GET', `/api/invitation/${invitationToken}`],
      ['GET', `/api/accept-invitation/${shareToken}?chat_id=${chat.id}`],
      ['GET', `/api/files/files/abcdefghijklmno/none_abcdefghij.txt?download=1&token=${fileToken}`],
      ['GET', `/live/${chat.id}/?token=${fileToken}`],
      ['POST', '/api/collections/users/confirm-password-reset', { token: resetToken, password: newPassword, passwordConfirm: newPassword }],
      ['POST', '/api/collections/users/auth-with-password', { identity: erin.username, password: newPassword }],
    ];
    const before = log.lines().filter((line) => line['msg'] === 'request completed').length;
    for (const [method, path, body] of requests) {
      const response = await fetch(`${testServer.url}${path}`, {
        method,
        redirect: 'manual',
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      expect(response.status, path).toBeLessThan(500);
      await response.arrayBuffer();
    }
    expect((await rawRequest(testServer.url, 'GET', `/api/invitation/${shareToken}`)).status).toBe(200);
    await completedRequests(before + requests.length + 1);

    const logged = log.text();
    for (const secret of [resetToken, invitationToken, shareToken, fileToken, temporaryPassword, newPassword, erin.password, erin.pb.authStore.token]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(encodeURIComponent(secret));
    }
    // The log still says what happened.
    const urls = log.lines().flatMap((line) => {
      const request = line['req'] as { url?: string } | undefined;
      return request?.url === undefined ? [] : [request.url];
    });
    expect(urls).toContain('/reset-password?token=[redacted]');
    expect(urls).toContain('/join/[redacted]');
    expect(urls).toContain('/complete-signup?user_id=x&chat_id=y&temp_password=[redacted]');
    expect(urls).toContain('/api/invitation/[redacted]');
    const outboxLines = log.lines().filter((line) => line['msg'] === 'mail written to outbox');
    expect(outboxLines.map((line) => line['subject'])).toEqual(['Reset your Confab password', 'You are invited to a chat on Confab']);
    expect(outboxLines.map((line) => line['toDomain'])).toEqual(['example.test', 'elsewhere.test']);
    for (const line of outboxLines) expect(String(line['file'])).toMatch(/\/outbox\/[^/]+\.eml$/);
    expect(logged).not.toContain('erin@example.test');
    expect(logged).not.toContain('stranger@elsewhere.test');

    // The developer reads the mail, link and all, in the .eml file.
    expect(resetMail).toContain(`/reset-password?token=${resetToken}`);
    expect(invitationMail).toContain(`/join/${invitationToken}`);
  });
});
