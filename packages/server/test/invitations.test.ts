import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/http/redaction';
import { ContentCipher } from '../src/services/contentCipher';
import { databaseVariants } from './support/databases';
import { createChat, failureOf, registerUser, type RegisteredUser } from './support/fixtures';
import { rawRequest, type RawResponse } from './support/http';
import { startTestServer, type TestServer } from './support/testServer';
import { TestSocket } from './support/wsClient';
import type { MyInvitationsAnswer } from '@confab/client/protocol';

const variants = await databaseVariants();
const secret = 'invitation-test-secret-0123456789abcdef';
const hourMs = 60 * 60 * 1000;

/** The /join/<token> token of the newest outbox mail. */
function joinToken(mail: string): string {
  const match = /\/join\/([A-Za-z0-9_-]+)/.exec(mail);
  if (match?.[1] === undefined) throw new Error(`no join link in mail:\n${mail}`);
  return match[1];
}

function tokenOfShareUrl(shareUrl: string): string {
  const token = shareUrl.split('/join/')[1];
  if (token === undefined) throw new Error(`not a share url: ${shareUrl}`);
  return token;
}

/** The text/html part of a multipart .eml. */
function htmlPart(mail: string): string {
  const start = mail.indexOf('Content-Type: text/html');
  if (start < 0) throw new Error(`no html part:\n${mail}`);
  return mail.slice(start);
}

describe.each(variants)('invitations, share links and onboarding ($name)', (variant) => {
  let testServer: TestServer;
  let clockOffsetMs = 0;
  let admin: RegisteredUser;
  let member: RegisteredUser;
  let outsider: RegisteredUser;

  const call = (method: string, path: string, user?: RegisteredUser | string, body?: unknown): Promise<RawResponse> =>
    rawRequest(testServer.url, method, path, {
      ...(user === undefined ? {} : { token: `Bearer ${typeof user === 'string' ? user : user.pb.authStore.token}` }),
      ...(body === undefined ? {} : { body }),
    });

  /** GET accept without following the redirect; the status (302 on success). */
  async function acceptAs(user: RegisteredUser, token: string, query = ''): Promise<number> {
    const response = await fetch(`${testServer.url}/api/accept-invitation/${token}${query}`, {
      headers: { authorization: `Bearer ${user.pb.authStore.token}` },
      redirect: 'manual',
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function participantsOf(chatId: string): Promise<string[]> {
    const rows = await testServer.probe.rows('select user_id from chat_participants where chat_id = $1', [chatId]);
    return rows.map((row) => String(row['user_id']));
  }

  async function shareLink(chatId: string, body: Record<string, unknown> = {}): Promise<string> {
    const response = await call('POST', `/api/create-share-link/${chatId}`, admin, body);
    expect(response.status).toBe(200);
    return tokenOfShareUrl((response.body as { share_url: string }).share_url);
  }

  beforeAll(async () => {
    testServer = await startTestServer(variant, {
      publicUrl: 'https://confab.example',
      secret,
      now: () => new Date(Date.now() + clockOffsetMs),
    });
    admin = await registerUser(testServer, { name: 'Ada <b>Admin</b>' });
    member = await registerUser(testServer, { name: 'Member Mo' });
    outsider = await registerUser(testServer, { name: 'Olive Outsider' });
  });

  afterAll(async () => {
    await testServer?.close();
  });

  describe('invite-to-chat', () => {
    it('adds an existing user by username at once, with chat_added for them and chat_updated for the others', async () => {
      const chat = await createChat(admin, { name: 'By username' });
      const target = await registerUser(testServer);
      const targetSocket = await TestSocket.open(testServer.url);
      const adminSocket = await TestSocket.open(testServer.url);
      try {
        expect((await targetSocket.authenticate(target.pb.authStore.token)).type).toBe('authSuccess');
        expect((await adminSocket.authenticate(admin.pb.authStore.token)).type).toBe('authSuccess');
        const response = await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, username: target.username.toUpperCase() });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          success: true,
          status: 'added',
          chat_id: chat.id,
          user: { id: target.record.id, username: target.username, name: '' },
        });
        expect(await participantsOf(chat.id)).toContain(target.record.id);
        const added = await targetSocket.nextOfType('chat_added');
        expect((added['chat'] as { id: string }).id).toBe(chat.id);
        const updated = await adminSocket.nextOfType('chat_updated');
        expect((updated['chat'] as { participants: string[] }).participants).toContain(target.record.id);
      } finally {
        await targetSocket.close();
        await adminSocket.close();
      }
    });

    it('answers 404 for an unknown username or a chat the inviter is not in, 401 for guests, 400 for bad input', async () => {
      const chat = await createChat(admin, { name: 'Errors' });
      const unknown = await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, username: 'nobody_here_at_all' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: 404, message: 'User not found' });
      const forbidden = await call('POST', '/api/invite-to-chat', outsider, { chat_id: chat.id, username: member.username });
      // The same answer as for a chat that does not exist: nothing tells an outsider the id is real.
      expect(forbidden.status).toBe(404);
      expect(forbidden.body).toMatchObject({ status: 404, message: 'Chat not found' });
      expect(await participantsOf(chat.id)).not.toContain(member.record.id);
      await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, username: member.username });
      // A participant who is not an admin is refused by the one rule of docs/PRODUCT.md §6: admins
      // invite.
      const notAdmin = await call('POST', '/api/invite-to-chat', member, { chat_id: chat.id, username: outsider.username });
      expect(notAdmin.status).toBe(403);
      expect(notAdmin.body).toMatchObject({ status: 403, message: 'Only chat admins can invite people.' });
      expect(await participantsOf(chat.id)).not.toContain(outsider.record.id);
      expect((await call('POST', '/api/invite-to-chat', undefined, { chat_id: chat.id, username: member.username })).status).toBe(401);
      const invalid = await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, email: 'not-an-email' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ data: { email: { code: 'validation_is_email' } } });
      expect((await call('POST', '/api/invite-to-chat', admin, { chat_id: 'abcdefghijklmno', username: member.username })).status).toBe(404);
    });

    it('invites an existing account by e-mail without adding it, and mails it, escaping HTML of names in the mail', async () => {
      const chat = await createChat(admin, { name: '<script>alert("chat")</script>' });
      const target = await registerUser(testServer, { email: 'existing.target@example.test' });
      const before = testServer.outboxMails().length;
      const response = await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, email: '  Existing.Target@Example.TEST ' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, status: 'invited', chat_id: chat.id });
      expect(await participantsOf(chat.id)).not.toContain(target.record.id);
      const mails = testServer.outboxMails();
      expect(mails).toHaveLength(before + 1);
      const mail = mails.at(-1) ?? '';
      expect(mail).toContain('To: existing.target@example.test');
      const html = htmlPart(mail);
      expect(html).toContain('&lt;script&gt;alert(&quot;chat&quot;)&lt;/script&gt;');
      expect(html).toContain('Ada &lt;b&gt;Admin&lt;/b&gt;');
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<b>Admin');
    });

    it('invites an unknown e-mail with a /join link whose token is stored only hashed; the new user signs up and joins once', async () => {
      const chat = await createChat(admin, { name: '<img src=x onerror=alert(1)>' });
      const response = await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, email: 'New.Person@Example.test' });
      expect(response.body).toEqual({ success: true, status: 'invited', chat_id: chat.id });
      const mail = testServer.outboxMails().at(-1) ?? '';
      expect(mail).toContain('To: new.person@example.test');
      expect(mail).toContain('https://confab.example/join/');
      const html = htmlPart(mail);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).not.toContain('<img');
      const token = joinToken(mail);
      expect(token.length).toBeGreaterThanOrEqual(22);
      const stored = await testServer.probe.rows('select token_hash from invitations');
      expect(JSON.stringify(stored)).not.toContain(token);

      const view = await call('GET', `/api/invitation/${token}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        chat_id: chat.id,
        chat: { id: chat.id, name: '<img src=x onerror=alert(1)>' },
        email: 'new.person@example.test',
        link_type: 'email',
        user_exists: false,
      });

      const short = await call('POST', `/api/accept-invitation/${token}`, undefined, { username: 'newperson', password: '12345' });
      expect(short.status).toBe(400);
      expect(short.body).toMatchObject({ data: { password: { code: 'validation_length_out_of_range' } } });
      const noName = await call('POST', `/api/accept-invitation/${token}`, undefined, { password: '123456' });
      expect(noName.body).toMatchObject({ data: { username: { code: 'validation_required' } } });

      const accepted = await call('POST', `/api/accept-invitation/${token}`, undefined, { username: 'newperson', password: '123456' });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ success: true, username: 'newperson', chat_id: chat.id });
      const pb = testServer.client();
      await pb.collection('users').authWithPassword('new.person@example.test', '123456');
      expect(pb.authStore.record).toMatchObject({ username: 'newperson', name: 'newperson', soft_registered: false });
      expect(await participantsOf(chat.id)).toContain(pb.authStore.record?.id);

      const again = await call('POST', `/api/accept-invitation/${token}`, undefined, { username: 'another1', password: '123456' });
      expect(again.status).toBe(404);
      expect((await call('GET', `/api/invitation/${token}`)).status).toBe(404);
    });

    it('shows user_exists for an e-mail that now has an account; that user joins with GET accept, once', async () => {
      const chat = await createChat(admin, { name: 'Existing later' });
      await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, email: 'registers.later@example.test' });
      const token = joinToken(testServer.outboxMails().at(-1) ?? '');
      const later = await registerUser(testServer, { email: 'registers.later@example.test' });
      expect((await call('GET', `/api/invitation/${token}`)).body).toMatchObject({ link_type: 'email', user_exists: true });
      const taken = await call('POST', `/api/accept-invitation/${token}`, undefined, { username: 'someone_new', password: '123456' });
      expect(taken.status).toBe(400);
      expect(taken.body).toMatchObject({ data: { email: { code: 'validation_not_unique' } } });
      expect(await acceptAs(later, token)).toBe(302);
      expect(await participantsOf(chat.id)).toContain(later.record.id);
      const rows = await testServer.probe.rows('select accepted_by, accepted_at from invitations where chat = $1', [chat.id]);
      expect(rows[0]?.['accepted_by']).toBe(later.record.id);
      expect(await acceptAs(outsider, token)).toBe(404);
      expect(await participantsOf(chat.id)).not.toContain(outsider.record.id);
    });
  });

  describe('e-mail invitations tell nothing about accounts and wait for the invitee', () => {
    let sequence = 0;
    /** A fresh account whose e-mail shares nothing with its username, id or name. */
    async function person(name = ''): Promise<RegisteredUser> {
      sequence += 1;
      const suffix = `${sequence}${Math.random().toString(36).slice(2, 7)}`;
      return registerUser(testServer, { username: `person_${suffix}`, email: `inbox.${suffix}@example.test`, ...(name === '' ? {} : { name }) });
    }
    const invite = (inviter: RegisteredUser, chatId: string, email: string) => call('POST', '/api/invite-to-chat', inviter, { chat_id: chatId, email });
    const pendingOf = async (user: RegisteredUser) => {
      const response = await call('GET', '/api/my-invitations', user);
      expect(response.status).toBe(200);
      return (response.body as MyInvitationsAnswer).invitations;
    };
    const mailTo = (email: string) => testServer.outboxMails().filter((mail) => mail.includes(`To: ${email}`));
    const invitationRows = (chatId: string) => testServer.probe.rows('select id, email, invitee, accepted_by from invitations where chat = $1', [chatId]);

    it('answers exactly alike for an account, an address without one, and a member of the chat', async () => {
      const inviter = await person('Ivy Inviter');
      const inChat = await person();
      const known = await person('Known Person');
      const chat = await createChat(inviter, { name: 'Alike', participants: [inChat.record.id] });
      const mailsBefore = testServer.outboxMails().length;
      const unknownEmail = `nobody.${Date.now()}@example.test`;
      const answers = [];
      for (const email of [known.email.toUpperCase(), unknownEmail, inChat.email]) {
        const response = await invite(inviter, chat.id, email);
        answers.push({ status: response.status, contentType: response.contentType, text: response.text });
      }
      expect(answers[0]).toMatchObject({ status: 200 });
      expect(JSON.parse(answers[0]?.text ?? '')).toEqual({ success: true, status: 'invited', chat_id: chat.id });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      // Nobody was added; the two outside the chat got a mail each, the member none.
      expect((await participantsOf(chat.id)).sort()).toEqual([inviter.record.id, inChat.record.id].sort());
      expect(testServer.outboxMails()).toHaveLength(mailsBefore + 2);
      expect(mailTo(known.email)).toHaveLength(1);
      expect(mailTo(unknownEmail)).toHaveLength(1);
      expect(mailTo(inChat.email)).toHaveLength(0);
      const rows = await invitationRows(chat.id);
      expect(rows.map((row) => row['email']).sort()).toEqual([known.email, unknownEmail].sort());
    });

    it('mails an existing account the same join link as anyone, with no detail of the account', async () => {
      const inviter = await person('Ivy Inviter');
      const known = await person('Known Person');
      const chat = await createChat(inviter, { name: 'Mail check' });
      const unknownEmail = `stranger.${Date.now()}@example.test`;
      await invite(inviter, chat.id, known.email);
      await invite(inviter, chat.id, unknownEmail);
      const [toKnown] = mailTo(known.email);
      const [toUnknown] = mailTo(unknownEmail);
      expect(toKnown).toContain('https://confab.example/join/');
      for (const detail of [known.username, known.record.id, 'Known Person']) expect(toKnown).not.toContain(detail);
      // The same text for both, but for the address, the token and the MIME boundary.
      const body = (mail: string, email: string) =>
        htmlPart(mail)
          .replace(/\/join\/[A-Za-z0-9_-]+/g, '/join/TOKEN')
          .replace(/--confab-[^\s]+/g, '--BOUNDARY')
          .replaceAll(email, 'ADDRESS');
      expect(body(toKnown ?? '', known.email)).toBe(body(toUnknown ?? '', unknownEmail));
    });

    it('lets an existing account accept in the app: a live frame, then it joins, and the invitation is spent', async () => {
      const inviter = await person('Ivy Inviter');
      const invitee = await person();
      const chat = await createChat(inviter, { name: 'Accept in app' });
      const socket = await TestSocket.open(testServer.url);
      try {
        expect((await socket.authenticate(invitee.pb.authStore.token)).type).toBe('authSuccess');
        expect((await invite(inviter, chat.id, invitee.email)).status).toBe(200);
        expect(await socket.nextOfType('invitations_changed')).toEqual({ type: 'invitations_changed' });
        expect(await participantsOf(chat.id)).not.toContain(invitee.record.id);
        const [pending, ...rest] = await pendingOf(invitee);
        expect(rest).toEqual([]);
        expect(pending).toEqual({
          id: expect.stringMatching(/^[a-z0-9]{15}$/),
          chat: { id: chat.id, name: 'Accept in app' },
          invited_by: { username: inviter.username, name: 'Ivy Inviter' },
          created: expect.any(String),
          expires_at: expect.any(String),
        });
        const accepted = await call('POST', `/api/my-invitations/${pending?.id}/accept`, invitee);
        expect(accepted.status).toBe(200);
        expect(accepted.body).toEqual({ chat_id: chat.id });
        expect(await participantsOf(chat.id)).toContain(invitee.record.id);
        expect(((await socket.nextOfType('chat_added'))['chat'] as { id: string }).id).toBe(chat.id);
        await socket.nextOfType('invitations_changed');
        expect(await pendingOf(invitee)).toEqual([]);
        expect((await call('POST', `/api/my-invitations/${pending?.id}/accept`, invitee)).status).toBe(404);
        const token = joinToken(mailTo(invitee.email).at(-1) ?? '');
        expect((await call('GET', `/api/invitation/${token}`)).status).toBe(404);
      } finally {
        await socket.close();
      }
    });

    it('lets an existing account accept through the mailed link instead, which empties its list', async () => {
      const inviter = await person();
      const invitee = await person();
      const chat = await createChat(inviter, { name: 'Accept by link' });
      await invite(inviter, chat.id, invitee.email);
      expect(await pendingOf(invitee)).toHaveLength(1);
      const token = joinToken(mailTo(invitee.email).at(-1) ?? '');
      expect((await call('GET', `/api/invitation/${token}`)).body).toMatchObject({ link_type: 'email', user_exists: true });
      expect(await acceptAs(invitee, token)).toBe(302);
      expect(await participantsOf(chat.id)).toContain(invitee.record.id);
      expect(await pendingOf(invitee)).toEqual([]);
    });

    it('declines: the invitation leaves the list, its link stops working, and nobody is added', async () => {
      const inviter = await person();
      const invitee = await person();
      const chat = await createChat(inviter, { name: 'Decline' });
      await invite(inviter, chat.id, invitee.email);
      const [pending] = await pendingOf(invitee);
      const declined = await call('POST', `/api/my-invitations/${pending?.id}/decline`, invitee);
      expect(declined.status).toBe(204);
      expect(declined.text).toBe('');
      expect(await pendingOf(invitee)).toEqual([]);
      expect(await participantsOf(chat.id)).not.toContain(invitee.record.id);
      expect(await invitationRows(chat.id)).toEqual([]);
      const token = joinToken(mailTo(invitee.email).at(-1) ?? '');
      expect(await acceptAs(invitee, token)).toBe(404);
      expect((await call('POST', `/api/my-invitations/${pending?.id}/accept`, invitee)).status).toBe(404);
    });

    it("answers 404 for someone else's invitation, and never lists one to an account registered after it", async () => {
      const inviter = await person();
      const invitee = await person();
      const other = await person();
      const chat = await createChat(inviter, { name: 'Not yours' });
      await invite(inviter, chat.id, invitee.email);
      const [pending] = await pendingOf(invitee);
      for (const action of ['accept', 'decline']) {
        const refused = await call('POST', `/api/my-invitations/${pending?.id}/${action}`, other);
        expect(refused.status).toBe(404);
        expect(refused.body).toMatchObject({ message: 'Invitation not found' });
        // The inviter cannot spend it either.
        expect((await call('POST', `/api/my-invitations/${pending?.id}/${action}`, inviter)).status).toBe(404);
        expect((await call('POST', `/api/my-invitations/${pending?.id}/${action}`)).status).toBe(401);
      }
      expect((await call('POST', '/api/my-invitations/abcdefghijklmno/accept', invitee)).status).toBe(404);
      expect((await call('GET', '/api/my-invitations')).status).toBe(401);
      expect(await pendingOf(other)).toEqual([]);
      expect(await pendingOf(invitee)).toHaveLength(1);
      expect(await participantsOf(chat.id)).toEqual([inviter.record.id]);

      // E-mail addresses are not verified: an account made with the address after the invitation
      // does not find it in the app; the mailed link still works for whoever holds the mailbox.
      const lateEmail = `late.${Date.now()}@example.test`;
      await invite(inviter, chat.id, lateEmail);
      const late = await registerUser(testServer, { email: lateEmail });
      expect(await pendingOf(late)).toEqual([]);
      expect(await acceptAs(late, joinToken(mailTo(lateEmail).at(-1) ?? ''))).toBe(302);
    });

    it('a new invitation to the same address replaces the pending one', async () => {
      const inviter = await person();
      const invitee = await person();
      const chat = await createChat(inviter, { name: 'Twice' });
      await invite(inviter, chat.id, invitee.email);
      const firstToken = joinToken(mailTo(invitee.email).at(-1) ?? '');
      await invite(inviter, chat.id, invitee.email);
      const secondToken = joinToken(mailTo(invitee.email).at(-1) ?? '');
      expect(await pendingOf(invitee)).toHaveLength(1);
      expect((await call('GET', `/api/invitation/${firstToken}`)).status).toBe(404);
      expect((await call('GET', `/api/invitation/${secondToken}`)).status).toBe(200);
    });

    it('refuses a participant who is not an admin, by e-mail and by username, and changes nothing', async () => {
      const owner = await person();
      const participant = await person();
      const known = await person();
      const chat = await createChat(owner, { name: 'Admins invite', participants: [participant.record.id] });
      const mailsBefore = testServer.outboxMails().length;
      const invitationsBefore = await testServer.probe.count('invitations');
      for (const body of [{ email: known.email }, { email: `someone.${Date.now()}@example.test` }, { username: known.username }]) {
        const refused = await call('POST', '/api/invite-to-chat', participant, { chat_id: chat.id, ...body });
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ status: 403, message: 'Only chat admins can invite people.', data: {} });
      }
      expect((await participantsOf(chat.id)).sort()).toEqual([owner.record.id, participant.record.id].sort());
      expect(await testServer.probe.count('invitations')).toBe(invitationsBefore);
      expect(testServer.outboxMails()).toHaveLength(mailsBefore);
      expect(await pendingOf(known)).toEqual([]);
    });
  });

  describe('share links and joining', () => {
    it('only admins create links; defaults are 24 h and 50 uses', async () => {
      const chat = await createChat(admin, { name: 'Share', participants: [member.record.id] });
      expect((await call('POST', `/api/create-share-link/${chat.id}`, member, {})).status).toBe(403);
      expect((await call('POST', `/api/create-share-link/${chat.id}`, outsider, {})).status).toBe(404);
      expect((await call('POST', `/api/create-share-link/${chat.id}`, undefined, {})).status).toBe(401);
      const bad = await call('POST', `/api/create-share-link/${chat.id}`, admin, { max_uses: 0 });
      expect(bad.status).toBe(400);
      const response = await call('POST', `/api/create-share-link/${chat.id}`, admin, {});
      expect(response.status).toBe(200);
      const body = response.body as { share_url: string; expires_at: string; max_uses: number };
      expect(body.share_url).toMatch(/^https:\/\/confab\.example\/join\/[A-Za-z0-9_-]{43}$/);
      expect(body.max_uses).toBe(50);
      const hours = (Date.parse(body.expires_at.replace(' ', 'T')) - Date.now()) / hourMs;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThan(24.1);
      const stored = await testServer.probe.rows('select token_hash from share_links where chat = $1', [chat.id]);
      expect(JSON.stringify(stored)).not.toContain(tokenOfShareUrl(body.share_url));
      const view = await call('GET', `/api/invitation/${tokenOfShareUrl(body.share_url)}`);
      expect(view.body).toMatchObject({ chat_id: chat.id, chat: { name: 'Share' }, email: '', link_type: 'shareable', user_exists: false });
    });

    it('joins a stranger with only a name as a soft-registered user', async () => {
      const chat = await createChat(admin, { name: 'Strangers' });
      const token = await shareLink(chat.id);
      const noName = await call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: '  ' });
      expect(noName.status).toBe(400);
      const response = await call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: '<i>Stranger</i>' });
      expect(response.status).toBe(200);
      const body = response.body as { success: boolean; temp_password: string; username: string; chat_id: string };
      expect(body.success).toBe(true);
      expect(body.chat_id).toBe(chat.id);
      expect(body.username).toMatch(/^user_[a-z0-9]{10}$/);
      expect(body.temp_password.length).toBeGreaterThanOrEqual(16);
      const pb = testServer.client();
      await pb.collection('users').authWithPassword(body.username, body.temp_password);
      expect(pb.authStore.record).toMatchObject({
        name: '<i>Stranger</i>',
        email: `${body.username}@temporary.confab.invalid`,
        soft_registered: true,
        signup_completed: false,
      });
      expect(await participantsOf(chat.id)).toContain(pb.authStore.record?.id);
    });

    it('GET accept joins the signed-in user with a 302 to the chat, and answers JSON errors otherwise', async () => {
      const chat = await createChat(admin, { name: 'Redirect' });
      const token = await shareLink(chat.id);
      const joiner = await registerUser(testServer);
      const guest = await call('GET', `/api/accept-invitation/${token}`);
      expect(guest.status).toBe(401);
      expect(guest.body).toMatchObject({ message: expect.any(String) });
      const response = await fetch(`${testServer.url}/api/accept-invitation/${token}`, {
        headers: { authorization: `Bearer ${joiner.pb.authStore.token}` },
        redirect: 'manual',
      });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`/chat/${chat.id}`);
      expect(await participantsOf(chat.id)).toContain(joiner.record.id);
      const useCount = await testServer.probe.rows('select use_count from share_links where chat = $1', [chat.id]);
      expect(Number(useCount[0]?.['use_count'])).toBe(1);
      const unknown = await call('GET', `/api/accept-invitation/${'x'.repeat(43)}`, joiner);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ message: 'Invalid or expired invitation' });
    });

    it('a token of chat A never joins chat B', async () => {
      const chatA = await createChat(admin, { name: 'Chat A' });
      const chatB = await createChat(admin, { name: 'Chat B' });
      const tokenA = await shareLink(chatA.id);
      await shareLink(chatB.id);
      const joiner = await registerUser(testServer);
      expect(await acceptAs(joiner, tokenA, `?chat_id=${chatB.id}`)).toBe(404);
      const mismatchPost = await call('POST', `/api/accept-invitation/${tokenA}`, undefined, { display_name: 'Sneaky', chat_id: chatB.id });
      expect(mismatchPost.status).toBe(404);
      expect(await acceptAs(joiner, tokenA)).toBe(302);
      expect(await participantsOf(chatA.id)).toContain(joiner.record.id);
      expect(await participantsOf(chatB.id)).not.toContain(joiner.record.id);
      const linksB = await testServer.probe.rows('select use_count from share_links where chat = $1', [chatB.id]);
      expect(Number(linksB[0]?.['use_count'])).toBe(0);
    });

    it('a new link revokes the old one at once', async () => {
      const chat = await createChat(admin, { name: 'Revoke' });
      const oldToken = await shareLink(chat.id);
      expect((await call('GET', `/api/invitation/${oldToken}`)).status).toBe(200);
      const newToken = await shareLink(chat.id);
      expect((await call('GET', `/api/invitation/${oldToken}`)).status).toBe(404);
      const joiner = await registerUser(testServer);
      expect(await acceptAs(joiner, oldToken)).toBe(404);
      expect((await call('POST', `/api/accept-invitation/${oldToken}`, undefined, { display_name: 'Late' })).status).toBe(404);
      expect(await participantsOf(chat.id)).not.toContain(joiner.record.id);
      expect(await acceptAs(joiner, newToken)).toBe(302);
    });

    it('expires links and invitations by the server clock', async () => {
      const chat = await createChat(admin, { name: 'Expiry' });
      const token = await shareLink(chat.id, { expires_in_hours: 1 });
      await call('POST', '/api/invite-to-chat', admin, { chat_id: chat.id, email: 'later.person@example.test' });
      const invitationToken = joinToken(testServer.outboxMails().at(-1) ?? '');
      try {
        clockOffsetMs = 59 * 60 * 1000;
        expect((await call('GET', `/api/invitation/${token}`)).status).toBe(200);
        clockOffsetMs = 61 * 60 * 1000;
        expect((await call('GET', `/api/invitation/${token}`)).status).toBe(404);
        expect((await call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: 'Too late' })).status).toBe(404);
        expect((await call('GET', `/api/invitation/${invitationToken}`)).status).toBe(200);
        clockOffsetMs = 7 * 24 * hourMs + 60_000;
        expect((await call('GET', `/api/invitation/${invitationToken}`)).status).toBe(404);
        const late = await call('POST', `/api/accept-invitation/${invitationToken}`, undefined, { username: 'laterperson', password: '123456' });
        expect(late.status).toBe(404);
      } finally {
        clockOffsetMs = 0;
      }
    });

    it('50 concurrent redemptions of a 50-use link and one more: exactly 50 succeed', async () => {
      const chat = await createChat(admin, { name: 'Crowd' });
      const token = await shareLink(chat.id, { max_uses: 50 });
      const responses = await Promise.all(
        Array.from({ length: 51 }, (_, index) => call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: `Guest ${index}` })),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(50);
      expect(statuses.filter((status) => status === 404)).toHaveLength(1);
      const link = await testServer.probe.rows('select use_count from share_links where chat = $1', [chat.id]);
      expect(Number(link[0]?.['use_count'])).toBe(50);
      expect(await participantsOf(chat.id)).toHaveLength(51);
      expect((await call('GET', `/api/invitation/${token}`)).status).toBe(404);
    }, 120_000);
  });

  describe('search-users', () => {
    it('needs a user and 2+ characters, matches username or name, is bounded and never exposes e-mails', async () => {
      for (let index = 0; index < 12; index += 1) await registerUser(testServer, { username: `zebra_${index}`, name: `Zed ${index}` });
      await registerUser(testServer, { username: 'quietone', name: 'Findable Person' });
      expect((await call('GET', '/api/search-users/ze')).status).toBe(401);
      const short = await call('GET', '/api/search-users/z', admin);
      expect(short.status).toBe(400);
      const response = await call('GET', '/api/search-users/zebra', admin);
      expect(response.status).toBe(200);
      const users = (response.body as { users: Record<string, unknown>[] }).users;
      expect(users).toHaveLength(10);
      for (const user of users) expect(Object.keys(user).sort()).toEqual(['id', 'name', 'username']);
      expect(response.text).not.toContain('@');
      const byName = await call('GET', `/api/search-users/${encodeURIComponent('findable pers')}`, admin);
      expect((byName.body as { users: { username: string }[] }).users.map((user) => user.username)).toEqual(['quietone']);
      const wildcard = await call('GET', '/api/search-users/%25%25', admin);
      expect((wildcard.body as { users: unknown[] }).users).toEqual([]);
    });
  });

  describe('complete-account', () => {
    async function softUser(): Promise<{ username: string; password: string; token: string; id: string }> {
      const chat = await createChat(admin, { name: 'Soft' });
      const token = await shareLink(chat.id);
      const body = (await call('POST', `/api/accept-invitation/${token}`, undefined, { display_name: 'Soft Sam' })).body as {
        username: string;
        temp_password: string;
      };
      const pb = testServer.client();
      await pb.collection('users').authWithPassword(body.username, body.temp_password);
      return { username: body.username, password: body.temp_password, token: pb.authStore.token, id: pb.authStore.record?.id ?? '' };
    }

    it('validates with PocketBase field errors, then completes the account once', async () => {
      const soft = await softUser();
      const invalid = await call('POST', '/api/complete-account', soft.token, { email: 'nope', username: '', password: 'short' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({
        status: 400,
        data: {
          email: { code: 'validation_is_email' },
          username: { code: 'validation_required' },
          password: { code: 'validation_length_out_of_range' },
        },
      });
      const taken = await call('POST', '/api/complete-account', soft.token, {
        email: member.email.toUpperCase(),
        username: member.username,
        password: 'long enough',
      });
      expect(taken.body).toMatchObject({
        data: { email: { code: 'validation_not_unique' }, username: { code: 'validation_not_unique' } },
      });
      const done = await call('POST', '/api/complete-account', soft.token, {
        email: '  Secured.Sam@Example.TEST ',
        username: 'secured_sam',
        password: 'long enough',
      });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ message: expect.any(String) });
      const pb = testServer.client();
      await pb.collection('users').authWithPassword('secured.sam@example.test', 'long enough');
      expect(pb.authStore.record).toMatchObject({
        id: soft.id,
        username: 'secured_sam',
        email: 'secured.sam@example.test',
        soft_registered: true,
        signup_completed: true,
      });
      const again = await call('POST', '/api/complete-account', pb.authStore.token, {
        email: 'other.sam@example.test',
        username: 'other_sam',
        password: 'long enough',
      });
      expect(again.status).toBe(403);
    });

    it('refuses full users and guests', async () => {
      const body = { email: 'x.y@example.test', username: 'xy_user', password: 'long enough' };
      expect((await call('POST', '/api/complete-account', member, body)).status).toBe(403);
      expect((await call('POST', '/api/complete-account', undefined, body)).status).toBe(401);
    });
  });

  describe('provider keys', () => {
    it('are encrypted bound to the user, never returned or stored in plaintext', async () => {
      const first = await registerUser(testServer);
      const second = await registerUser(testServer);
      const openaiKey = 'sk-proj-PLAINTEXT-first-1234567890';
      const geminiKey = 'AIza-PLAINTEXT-second-0987654321';
      const updated = await first.pb.collection('users').update(first.record.id, { openai_api_key: openaiKey });
      expect(updated).toMatchObject({ openai_api_key_set: true, openai_api_key_hint: '••••7890', gemini_api_key_set: false });
      expect(JSON.stringify(updated)).not.toContain(openaiKey);
      await second.pb.collection('users').update(second.record.id, { openai_api_key_encrypted: geminiKey, gemini_api_key: geminiKey });
      const viewed = await second.pb.collection('users').getOne(second.record.id);
      expect(viewed).toMatchObject({ openai_api_key_set: true, gemini_api_key_set: true });
      expect(JSON.stringify(viewed)).not.toContain(geminiKey);
      expect(viewed['openai_api_key_encrypted']).toBeUndefined();

      // A dump of every table's rows holds neither key.
      const tables =
        variant.name === 'sqlite'
          ? await testServer.probe.rows("select name from sqlite_master where type = 'table'")
          : await testServer.probe.rows("select table_name as name from information_schema.tables where table_schema = current_schema()");
      expect(tables.length).toBeGreaterThan(5);
      let dump = '';
      for (const table of tables) dump += JSON.stringify(await testServer.probe.rows(`select * from "${String(table['name'])}"`));
      expect(dump).toContain(first.record.id);
      expect(dump).not.toContain(openaiKey);
      expect(dump).not.toContain(geminiKey);
      expect(dump).not.toContain('PLAINTEXT');

      // Each ciphertext decrypts only for its own user: swapped between rows, both fail.
      const rows = await testServer.probe.rows('select id, openai_api_key_encrypted from users where id in ($1, $2)', [
        first.record.id,
        second.record.id,
      ]);
      const stored = new Map(rows.map((row) => [String(row['id']), String(row['openai_api_key_encrypted'])]));
      const cipher = new ContentCipher(secret, 'provider-api-keys');
      expect(cipher.decrypt(stored.get(first.record.id) ?? '', first.record.id)).toBe(openaiKey);
      expect(cipher.decrypt(stored.get(second.record.id) ?? '', second.record.id)).toBe(geminiKey);
      expect(() => cipher.decrypt(stored.get(first.record.id) ?? '', second.record.id)).toThrow();
      expect(() => cipher.decrypt(stored.get(second.record.id) ?? '', first.record.id)).toThrow();
    });
  });

  it('answers a plain 404 through the SDK for unknown tokens, and log lines never carry tokens', async () => {
    expect(redactUrl('/api/accept-invitation/abcDEF123_-xyz?chat_id=1')).toBe('/api/accept-invitation/[redacted]?chat_id=1');
    expect(redactUrl('/api/invitation/abcDEF123_-xyz')).toBe('/api/invitation/[redacted]');
    const failure = await failureOf(() => testServer.client().send(`/api/invitation/${'y'.repeat(43)}`, {}));
    expect(failure.status).toBe(404);
  });
});

describe('temporary accounts through share links are limited per address', () => {
  let testServer: TestServer;
  let clockOffsetMs = 0;
  beforeAll(async () => {
    const [sqlite] = variants;
    testServer = await startTestServer(sqlite!, { temporaryAccountsPerIpPerHour: 3, now: () => new Date(Date.now() + clockOffsetMs) });
  });
  afterAll(async () => {
    await testServer?.close();
  });

  it('answers 429 past the hourly allowance, spends no use of the link, and allows again an hour later', async () => {
    const admin = await registerUser(testServer);
    const chat = await createChat(admin, { name: 'Busy' });
    const created = await rawRequest(testServer.url, 'POST', `/api/create-share-link/${chat.id}`, { token: `Bearer ${admin.pb.authStore.token}`, body: {} });
    const token = tokenOfShareUrl((created.body as { share_url: string }).share_url);
    const join = (name: string) => rawRequest(testServer.url, 'POST', `/api/accept-invitation/${token}`, { body: { display_name: name } });

    for (const name of ['One', 'Two', 'Three']) expect((await join(name)).status).toBe(200);
    const refused = await join('Four');
    expect(refused.status).toBe(429);
    expect((refused.body as { message: string }).message).toBe('Too many attempts. Please wait a few minutes and try again.');
    const link = await testServer.probe.rows('select use_count from share_links where chat = $1', [chat.id]);
    expect(Number(link[0]?.['use_count'])).toBe(3);
    const temporary = await testServer.probe.rows('select count(*) as n from users where soft_registered = 1', []);
    expect(Number(temporary[0]?.['n'])).toBe(3);

    clockOffsetMs = 61 * 60 * 1000;
    try {
      expect((await join('Four')).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe.each(variants)('invitations are limited per inviter and per chat ($name)', (variant) => {
  let testServer: TestServer;
  let clockOffsetMs = 0;
  // Limits count per clock hour: a fixed start ten minutes into an hour keeps every test inside one.
  const startedAt = Date.now();
  const clockStart = Date.UTC(2030, 0, 1, 10, 10);
  beforeAll(async () => {
    testServer = await startTestServer(variant, {
      invitationsPerUserPerHour: 3,
      invitationsPerChatPerHour: 4,
      now: () => new Date(clockStart + (Date.now() - startedAt) + clockOffsetMs),
    });
  });
  afterAll(async () => {
    await testServer?.close();
  });

  const invite = (inviter: RegisteredUser, chatId: string, target: { email: string } | { username: string }) =>
    rawRequest(testServer.url, 'POST', '/api/invite-to-chat', { token: `Bearer ${inviter.pb.authStore.token}`, body: { chat_id: chatId, ...target } });
  const tooMany = { status: 429, message: 'Too many invitations. Please try again later.', data: {} };
  const fresh = (label: string) => ({ email: `${label}.${Math.random().toString(36).slice(2, 8)}@example.test` });

  it("answers 429 past the inviter's hourly allowance, by e-mail and by username, and again the next hour", async () => {
    const inviter = await registerUser(testServer);
    const first = await createChat(inviter, { name: 'First' });
    const second = await createChat(inviter, { name: 'Second' });
    const joiner = await registerUser(testServer);
    expect((await invite(inviter, first.id, fresh('one'))).status).toBe(200);
    expect((await invite(inviter, second.id, fresh('two'))).status).toBe(200);
    expect((await invite(inviter, first.id, { username: joiner.username })).status).toBe(200);
    const invitationsBefore = await testServer.probe.count('invitations');
    const byEmail = await invite(inviter, second.id, fresh('three'));
    expect(byEmail.status).toBe(429);
    expect(byEmail.body).toEqual(tooMany);
    const late = await registerUser(testServer);
    const byUsername = await invite(inviter, second.id, { username: late.username });
    expect(byUsername.status).toBe(429);
    expect(byUsername.body).toEqual(tooMany);
    expect(await testServer.probe.count('invitations')).toBe(invitationsBefore);
    const members = await testServer.probe.rows('select user_id from chat_participants where chat_id = $1', [second.id]);
    expect(members.map((row) => row['user_id'])).toEqual([inviter.record.id]);

    clockOffsetMs = 60 * 60 * 1000;
    try {
      expect((await invite(inviter, second.id, { username: late.username })).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("answers 429 past the chat's hourly allowance, whichever admin invites", async () => {
    const ann = await registerUser(testServer);
    const ben = await registerUser(testServer);
    const chat = await createChat(ann, { name: 'Busy chat', participants: [ben.record.id] });
    await ann.pb.collection('chats').update(chat.id, { 'admins+': ben.record.id });
    for (const label of ['a', 'b', 'c']) expect((await invite(ann, chat.id, fresh(label))).status).toBe(200);
    // Ann's own allowance (3) is spent; that refusal does not spend the chat's.
    expect((await invite(ann, chat.id, fresh('d'))).status).toBe(429);
    expect((await invite(ben, chat.id, fresh('e'))).status).toBe(200);
    const refused = await invite(ben, chat.id, fresh('f'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(tooMany);
    const rows = await testServer.probe.rows('select count(*) as n from invitations where chat = $1', [chat.id]);
    expect(Number(rows[0]?.['n'])).toBe(4);
    // Other chats keep their own allowance (Ben has one invitation of his own left).
    const other = await createChat(ben, { name: 'Quiet chat' });
    expect((await invite(ben, other.id, fresh('g'))).status).toBe(200);
  });
});
