/**
 * Invitations end to end (docs/CONTRACTS.md, Invitations and onboarding): a chat admin invites an
 * existing user by username, a new person by e-mail (who joins from the mailed link in the outbox)
 * and a stranger by share link (who joins with only a name, then secures the account through the
 * banner), and all of them talk.
 */
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, newAccount, startStack, type Stack } from './harness';

describeBrowser('invitations and onboarding in Chromium', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const openPage = async (): Promise<Page> => (await stack.newPage()).page;
  const signedIn = async (account: { username: string; password: string }): Promise<Page> => (await stack.signIn(account)).page;

  async function say(page: Page, text: string) {
    const input = page.getByLabel('Message', { exact: true });
    await input.fill(text);
    await input.press('Enter');
  }

  function joinLinkIn(mail: string): string {
    const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = unfolded.match(/https?:\/\/[^\s"'<>]+\/join\/[A-Za-z0-9_-]+/);
    if (!match) throw new Error(`no join link in mail:\n${mail}`);
    return new URL(match[0]).pathname;
  }

  it('brings in an existing user, a new e-mail invitee and a share-link stranger, and all talk', { timeout: 240_000 }, async () => {
    const pb = new PocketBase(stack.baseUrl);
    const alice = newAccount('alice');
    const bob = newAccount('bob');
    for (const account of [alice, bob]) {
      await pb.collection('users').create({ ...account, passwordConfirm: account.password });
    }
    await pb.collection('users').authWithPassword(alice.username, alice.password);
    const chat = await pb.collection('chats').create({ name: 'Launch <b>crew</b>' });

    const alicePage = await signedIn(alice);

    // 1. An existing user by username: added at once, back to the chat after 1.5 s.
    await alicePage.goto(`/chat/${chat.id}/invite`);
    await alicePage.getByLabel('Email or username').fill(bob.username);
    await alicePage.getByRole('button', { name: 'Send Invite' }).click();
    await alicePage.waitForURL(`**/chat/${chat.id}`, { timeout: 10_000 });

    // 2. A new person by e-mail: the link arrives in the outbox.
    const carolEmail = `carol.${Date.now()}@example.com`;
    await alicePage.goto(`/chat/${chat.id}/invite`);
    await alicePage.getByLabel('Email or username').fill(carolEmail.toUpperCase());
    await alicePage.getByRole('button', { name: 'Send Invite' }).click();
    let invitationMail: string | undefined;
    for (let attempt = 0; attempt < 50 && !invitationMail; attempt += 1) {
      invitationMail = (await stack.outbox()).find((mail) => mail.includes(carolEmail) && mail.includes('/join/'));
      if (!invitationMail) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(invitationMail, 'invitation mail in the outbox').toBeDefined();
    // The chat name is user input: its HTML part carries it escaped (the text part is plain text).
    const html = invitationMail!.replace(/=\r?\n/g, '').replace(/=3D/g, '=').split(/content-type: text\/html/i)[1] ?? '';
    expect(html).toContain('&lt;b&gt;crew&lt;/b&gt;');
    expect(html).not.toContain('<b>crew</b>');

    const carolPage = await openPage();
    await carolPage.goto(joinLinkIn(invitationMail!));
    const carolName = `carol_${Date.now().toString(36)}`;
    await carolPage.getByLabel('Username', { exact: true }).fill(carolName);
    await carolPage.getByLabel('Password', { exact: true }).fill('carol secret');
    await carolPage.getByLabel('Confirm Password', { exact: true }).fill('carol secret');
    await carolPage.getByRole('button', { name: 'Create Account and Join' }).click();
    await carolPage.getByText('Welcome to the chat!').waitFor();
    await carolPage.waitForURL(`**/chat/${chat.id}`, { timeout: 15_000 });

    // 3. A stranger by share link: joins with only a name.
    await alicePage.goto(`/chat/${chat.id}/invite`);
    await alicePage.getByRole('button', { name: 'Create Share Link' }).click();
    const shareField = alicePage.getByRole('textbox', { name: 'Share link', exact: true });
    await shareField.waitFor();
    const shareUrl = await shareField.inputValue();
    expect(shareUrl).toMatch(/\/join\/[A-Za-z0-9_-]+$/);

    const davePage = await openPage();
    await davePage.goto(new URL(shareUrl).pathname);
    await davePage.getByLabel('Your name').fill('Dave <script>');
    await davePage.getByRole('button', { name: 'Join Chat' }).click();
    await davePage.waitForURL(`**/chat/${chat.id}`, { timeout: 15_000 });

    // ... then secures the account through the banner.
    await davePage.getByRole('button', { name: 'Complete Signup' }).click();
    await davePage.waitForURL('**/complete-account');
    await davePage.getByRole('heading', { name: 'Secure Your Account' }).waitFor();
    const dave = newAccount('dave');
    await davePage.getByLabel('Email', { exact: true }).fill(`  ${dave.email.toUpperCase()} `);
    await davePage.getByLabel('Username', { exact: true }).fill(dave.username);
    await davePage.getByLabel('Password', { exact: true }).fill(dave.password);
    await davePage.getByLabel('Confirm Password', { exact: true }).fill(dave.password);
    await davePage.getByRole('button', { name: 'Secure Account' }).click();
    await davePage.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    expect(await davePage.getByRole('button', { name: 'Complete Signup' }).count()).toBe(0);

    // Everyone talks in the chat.
    const bobPage = await signedIn(bob);
    const speakers: Array<[Page, string]> = [
      [alicePage, 'Welcome all'],
      [bobPage, 'Bob here'],
      [carolPage, 'Carol here'],
      [davePage, 'Dave here'],
    ];
    for (const [page] of speakers) {
      await page.goto(`/chat/${chat.id}`);
      await page.getByText('Connected', { exact: true }).waitFor();
    }
    for (const [page, text] of speakers) await say(page, text);
    for (const [page] of speakers) {
      for (const [, text] of speakers) await page.getByText(text, { exact: true }).waitFor();
    }

    // Dave's completed account signs in with the credentials he chose.
    const davePb = new PocketBase(stack.baseUrl);
    const auth = await davePb.collection('users').authWithPassword(dave.email, dave.password);
    expect(auth.record['username']).toBe(dave.username);
    expect(auth.record['signup_completed']).toBe(true);
  });

  it('completes a temporary account from a /complete-signup link and lands in the chat', { timeout: 120_000 }, async () => {
    const pb = new PocketBase(stack.baseUrl);
    const owner = newAccount('erin');
    await pb.collection('users').create({ ...owner, passwordConfirm: owner.password });
    await pb.collection('users').authWithPassword(owner.username, owner.password);
    const chat = await pb.collection('chats').create({ name: 'Signup corner' });
    const link = await pb.send(`/api/create-share-link/${chat.id}`, { method: 'POST', body: {} });
    const token = new URL(String(link['share_url'])).pathname.split('/').at(-1)!;
    const joined = await new PocketBase(stack.baseUrl).send(`/api/accept-invitation/${token}`, {
      method: 'POST',
      body: { display_name: 'Frank' },
    });
    const guest = await new PocketBase(stack.baseUrl).collection('users').authWithPassword(String(joined['username']), String(joined['temp_password']));

    const page = await openPage();
    const query = new URLSearchParams({ user_id: guest.record.id, chat_id: chat.id, temp_password: String(joined['temp_password']) });
    await page.goto(`/complete-signup?${query.toString()}`);
    const chosen = `frank_${Date.now().toString(36)}`;
    await page.getByLabel('Username', { exact: true }).fill(chosen);
    await page.getByRole('button', { name: 'Complete Signup' }).click();
    await page.waitForURL(`**/chat/${chat.id}`, { timeout: 15_000 });
    await page.getByText('Connected', { exact: true }).waitFor();

    await page.goto('/complete-signup?user_id=only');
    await page.getByText('Invalid signup link. Please request a new invitation.').waitFor();
  });

  /** Alice's chat, with her signed-in API client (for invitations and links made outside the UI). */
  async function chatOwnedBy(name: string) {
    const owner = newAccount('owner');
    const pb = new PocketBase(stack.baseUrl);
    await pb.collection('users').create({ ...owner, passwordConfirm: owner.password });
    await pb.collection('users').authWithPassword(owner.username, owner.password);
    const chat = await pb.collection('chats').create({ name });
    return { pb, owner, chat };
  }

  async function registered(prefix: string) {
    const account = newAccount(prefix);
    await new PocketBase(stack.baseUrl).collection('users').create({ ...account, passwordConfirm: account.password });
    return account;
  }

  /** Invites an e-mail address nobody uses yet and returns the /join/{token} path of the mail. */
  async function emailInvitation(pb: PocketBase, chatId: string, email: string): Promise<string> {
    await pb.send('/api/invite-to-chat', { method: 'POST', body: { chat_id: chatId, email } });
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const mail = (await stack.outbox()).find((text) => text.includes(email) && text.includes('/join/'));
      if (mail) return joinLinkIn(mail);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no invitation mail for ${email}`);
  }

  async function shareLink(pb: PocketBase, chatId: string, body: Record<string, unknown> = {}): Promise<string> {
    const link = await pb.send(`/api/create-share-link/${chatId}`, { method: 'POST', body });
    return new URL(String(link['share_url'])).pathname;
  }

  async function signInOnLoginScreen(page: Page, account: { username: string; password: string }) {
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }

  /** Waits for the chat page of chatId, connected, showing the chat's name as plain text. */
  async function inChat(page: Page, chatId: string, chatName: string) {
    await page.waitForURL(`**/chat/${chatId}`, { timeout: 15_000 });
    await page.getByText('Connected', { exact: true }).waitFor();
    await page.getByRole('heading', { name: chatName, exact: true }).first().waitFor();
  }

  it('lets people who already have accounts join by e-mail invitation and by share link, signed in or out', { timeout: 180_000 }, async () => {
    const chatName = 'Ops <i>room</i>';
    const { pb, chat } = await chatOwnedBy(chatName);
    const link = await shareLink(pb, chat.id);

    // Signed out, e-mail invitation, the invited address has an account by now: sign in first.
    const grace = newAccount('grace');
    const graceJoin = await emailInvitation(pb, chat.id, grace.email);
    await new PocketBase(stack.baseUrl).collection('users').create({ ...grace, passwordConfirm: grace.password });
    const gracePage = await openPage();
    await gracePage.goto(graceJoin);
    await gracePage.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === graceJoin);
    await signInOnLoginScreen(gracePage, grace);
    await gracePage.getByRole('heading', { name: 'Welcome to the chat!' }).waitFor();
    await inChat(gracePage, chat.id, chatName);

    // Signed in, e-mail invitation: accepted at once, then the chat after 2 s.
    const heidi = newAccount('heidi');
    const heidiJoin = await emailInvitation(pb, chat.id, heidi.email);
    await new PocketBase(stack.baseUrl).collection('users').create({ ...heidi, passwordConfirm: heidi.password });
    const heidiPage = await signedIn(heidi);
    await heidiPage.goto(heidiJoin);
    await heidiPage.getByRole('heading', { name: 'Welcome to the chat!' }).waitFor();
    const welcomedAt = Date.now();
    await inChat(heidiPage, chat.id, chatName);
    expect(Date.now() - welcomedAt).toBeGreaterThanOrEqual(1_500);

    // Signed in, share link: joined as the current user, then the chat after 1 s.
    const ivan = await registered('ivan');
    const ivanPage = await signedIn(ivan);
    await ivanPage.goto(link);
    await ivanPage.getByRole('heading', { name: 'Welcome to the chat!' }).waitFor();
    await inChat(ivanPage, chat.id, chatName);

    // Signed out, share link, has an account: the name form offers to sign in instead. The chat's
    // name is shown as text, never as markup.
    const judy = await registered('judy');
    const judyPage = await openPage();
    await judyPage.goto(link);
    const heading = judyPage.getByRole('heading', { name: `Join ${chatName}`, exact: true });
    await heading.waitFor();
    expect(await heading.locator('i').count()).toBe(0);
    await judyPage.getByRole('link', { name: 'Sign in instead' }).click();
    await judyPage.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === link);
    await signInOnLoginScreen(judyPage, judy);
    await inChat(judyPage, chat.id, chatName);

    // Each joined with their own account: no temporary accounts, the share link spent twice.
    const members = await pb.collection('chats').getOne(chat.id, { expand: 'participants' });
    const usernames = (members.expand?.['participants'] as Array<{ username: string }>).map((user) => user.username);
    for (const account of [grace, heidi, ivan, judy]) expect(usernames).toContain(account.username);
    expect(usernames.filter((username) => username.startsWith('user_'))).toEqual([]);
    expect(usernames).toHaveLength(5);

    // They talk: Judy's words reach Grace live.
    await say(judyPage, 'Judy made it');
    await gracePage.getByText('Judy made it', { exact: true }).waitFor();
  });

  it('shows the errors of the join screen for a missing, an unknown, an expired and a used-up token', { timeout: 120_000 }, async () => {
    const page = await openPage();
    const expectJoinError = async (path: string, message: string) => {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Unable to Join Chat' }).waitFor();
      await page.getByText(message, { exact: true }).waitFor();
    };

    await expectJoinError('/join', 'Invalid invitation link');
    await expectJoinError('/join?token=', 'Invalid invitation link');
    await expectJoinError('/join/not-a-real-token', 'Invalid or expired invitation link');

    // Expiry, on the server's clock: a one-hour link two hours on; a 7-day invitation 8 days on.
    const { pb, chat } = await chatOwnedBy('Expiry');
    const hourLink = await shareLink(pb, chat.id, { expires_in_hours: 1 });
    const invitation = await emailInvitation(pb, chat.id, `late.${Date.now()}@example.com`);
    await page.goto(hourLink);
    await page.getByLabel('Your name').waitFor();
    try {
      stack.clock.advance(2 * 60 * 60 * 1000);
      await expectJoinError(hourLink, 'Invalid or expired invitation link');
      await page.goto(invitation);
      await page.getByLabel('Confirm Password', { exact: true }).waitFor();
      stack.clock.advance(8 * 24 * 60 * 60 * 1000);
      await expectJoinError(invitation, 'Invalid or expired invitation link');
      await expectJoinError(`/join?token=${invitation.split('/').at(-1)}`, 'Invalid or expired invitation link');
    } finally {
      stack.clock.reset();
    }

    // A one-use link, once spent, and a link replaced by a newer one both fail at once.
    const oneUse = await shareLink(pb, chat.id, { max_uses: 1 });
    await new PocketBase(stack.baseUrl).send(`/api/accept-invitation/${oneUse.split('/').at(-1)}`, { method: 'POST', body: { display_name: 'Once' } });
    await expectJoinError(oneUse, 'Invalid or expired invitation link');
    const replaced = await shareLink(pb, chat.id);
    await page.goto(replaced);
    await page.getByLabel('Your name').waitFor();
    await shareLink(pb, chat.id);
    await expectJoinError(replaced, 'Invalid or expired invitation link');

    await page.getByRole('button', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login**');
  });
});
