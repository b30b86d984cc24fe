/**
 * The security review's invitation findings, end to end: an admin invites an existing account by
 * e-mail; the invitee's open app shows the invitation live, and only accepting adds them; a
 * participant who is not an admin cannot invite; anyone can leave a chat from Chat Options.
 */
import PocketBase from 'pocketbase';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, newAccount, startStack, type Stack } from './harness';

describeBrowser('invitations that ask first, and leaving a chat, in Chromium', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('Alice invites Bob by e-mail; Bob accepts live, cannot invite, and leaves', { timeout: 180_000 }, async () => {
    const pb = new PocketBase(stack.baseUrl);
    const alice = newAccount('alice');
    const bob = newAccount('bob');
    for (const account of [alice, bob]) await pb.collection('users').create({ ...account, passwordConfirm: account.password });
    await pb.collection('users').authWithPassword(alice.username, alice.password);
    const chatName = 'Roadmap review';
    const chat = await pb.collection('chats').create({ name: chatName });

    // Bob's app is open before the invitation exists.
    const { page: bobPage } = await stack.signIn(bob);
    const bobSidebar = bobPage.getByRole('complementary', { name: 'Sidebar' });

    // Alice (the chat's admin) invites Bob's address from the Invite User screen.
    const { page: alicePage } = await stack.signIn(alice);
    await alicePage.goto(`/chat/${chat.id}/invite`);
    await alicePage.getByLabel('Email or username').fill(bob.email.toUpperCase());
    await alicePage.getByRole('button', { name: 'Send Invite' }).click();
    await alicePage.getByRole('status').filter({ hasText: `Invitation sent to ${bob.email}.` }).waitFor();

    // Bob's open app shows it without a reload; he is not in the chat yet.
    const invitations = bobSidebar.getByRole('region', { name: /Invitations/ });
    const invitation = invitations.getByRole('listitem', { name: chatName });
    await invitation.waitFor({ timeout: 15_000 });
    expect(await invitation.textContent()).toContain(`Invited by @${alice.username}`);
    const before = await pb.collection('chats').getOne(chat.id);
    expect(before['participants']).toHaveLength(1);

    // Accepting (from the keyboard) joins and opens the chat.
    await invitation.getByRole('button', { name: `Accept invitation to ${chatName}` }).press('Enter');
    await bobPage.waitForURL(`**/chat/${chat.id}`, { timeout: 15_000 });
    await bobPage.getByRole('heading', { level: 1, name: chatName }).waitFor();
    await bobSidebar.getByRole('navigation', { name: 'Chats' }).getByRole('link', { name: new RegExp(chatName) }).waitFor();
    expect(await invitations.count()).toBe(0);

    // Bob is a participant, not an admin: Invite User is disabled and says why.
    const invite = bobPage.getByRole('button', { name: 'Invite User' });
    expect(await invite.isDisabled()).toBe(true);
    const describedBy = await invite.getAttribute('aria-describedby');
    expect(await bobPage.locator(`[id="${describedBy}"]`).textContent()).toBe('Only chat admins can invite people.');

    // Bob leaves from Chat Options, after confirming; the chat is gone from his sidebar.
    await bobPage.getByRole('button', { name: 'Chat Options' }).click();
    await bobPage.waitForURL(`**/chat/${chat.id}/options`);
    await bobPage.getByRole('button', { name: 'Leave chat' }).click();
    await bobPage.getByRole('group', { name: `Leave ${chatName}?` }).getByRole('button', { name: 'Yes, leave chat' }).click();
    await bobPage.waitForURL((url) => url.pathname === '/chat', { timeout: 15_000 });
    await bobPage.getByText('Select a chat to get started').waitFor();
    await bobSidebar.getByRole('navigation', { name: 'Chats' }).getByRole('link', { name: new RegExp(chatName) }).waitFor({ state: 'detached' });
    const after = await pb.collection('chats').getOne(chat.id);
    expect(after['participants']).toEqual([after['creator']]);
  });
});
