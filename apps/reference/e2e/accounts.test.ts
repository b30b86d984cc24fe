/**
 * The account flows of docs/PRODUCT.md §2/§4/§5/§8 in a real browser against the real server:
 * register → app → logout → login → forgot password → reset link from the outbox → new password → login.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, newAccount, registerInBrowser, resetLinkFrom, startStack, type Stack } from './harness';

describeBrowser('account flows in Chromium', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function login(page: Page, identity: string, password: string) {
    await page.getByLabel('Username', { exact: true }).fill(identity);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }

  const alert = (page: Page) => page.getByRole('alert');

  it('takes a new user from the landing page through register, logout, login and a password reset', async () => {
    const { page, context } = await stack.newPage();
    const account = newAccount('alice');

    await page.goto('/');
    await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
    const cta = page.getByRole('link', { name: 'Get Started' }).first();
    expect(await cta.getAttribute('href')).toBe('/register?source=main-landing&user_type=mixed');
    expect(await page.locator('#how-it-works').count()).toBe(1);
    await cta.click();
    await page.waitForURL('**/register?source=main-landing&user_type=mixed');
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();

    // Logged in and sent to / after 0.5 s: the signed-in shell.
    await registerInBrowser(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(account.username).first().waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await login(page, account.username, account.password);
    await page.getByText('Select a chat to get started').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    // Log in by e-mail too.
    await login(page, account.email, account.password);
    await page.getByText('Select a chat to get started').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    // Forgot password → mail in the outbox → reset link → new password.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page
      .getByText('Password reset email sent! Check your inbox and follow the instructions to reset your password.')
      .waitFor();
    const mails = await stack.outbox();
    const mail = mails.filter((text) => text.includes(account.email)).at(-1);
    expect(mail).toBeDefined();
    const link = new URL(resetLinkFrom(mail!));
    expect(link.pathname).toBe('/reset-password');

    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Set New Password' }).waitFor();
    const newPassword = 'a brand new secret';
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password reset successful! You can now log in with your new password.').waitFor();
    await page.waitForURL('**/login', { timeout: 10_000 });

    // The old password no longer works; the new one does.
    await login(page, account.username, account.password);
    await alert(page).filter({ hasText: 'Failed to authenticate.' }).waitFor();
    await login(page, account.username, newPassword);
    await page.getByText('Select a chat to get started').waitFor();

    // The used link is single-use.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto(link.pathname + link.search);
    await page.getByLabel('New Password', { exact: true }).fill('yet another one');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('yet another one');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await alert(page)
      .filter({ hasText: 'Invalid or expired reset token. Please request a new password reset.' })
      .waitFor();
    await context.close();
  });

  it('shows every validation message of the login screen and honours ?redirect', async () => {
    const { page, context } = await stack.newPage();
    const account = newAccount('bob');
    await registerInBrowser(page, account);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    await page.getByRole('button', { name: 'Sign In' }).click();
    await alert(page).filter({ hasText: 'Please enter both username and password' }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await alert(page).filter({ hasText: 'Please enter both username and password' }).waitFor();
    await login(page, account.username, 'wrong password');
    await alert(page).filter({ hasText: 'Failed to authenticate.' }).waitFor();

    // A private route sends a guest to /login; ?redirect brings them back after signing in.
    await page.goto('/chat');
    await page.waitForURL('**/login**');
    await page.goto('/login?redirect=/chat');
    await login(page, account.username, account.password);
    await page.waitForURL((url) => url.pathname === '/chat');
    await context.close();
  });

  it('shows every validation message of the register screen where the spec puts it', async () => {
    const { page, context } = await stack.newPage();
    const taken = newAccount('carol');
    await registerInBrowser(page, taken);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    await page.goto('/register');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await alert(page).filter({ hasText: 'Please fill in all fields' }).waitFor();

    const fresh = newAccount('dave');
    await page.getByLabel('Email', { exact: true }).fill(fresh.email);
    await page.getByLabel('Username', { exact: true }).fill(fresh.username);
    await page.getByLabel('Password', { exact: true }).fill('longenough1');
    await page.getByLabel('Confirm Password', { exact: true }).fill('different11');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await alert(page).filter({ hasText: 'Passwords do not match' }).waitFor();

    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await alert(page).filter({ hasText: 'Password must be at least 8 characters' }).waitFor();

    // Server field errors are shown as 'Username: …' / 'Email: …' joined with '. '.
    await page.getByLabel('Username', { exact: true }).fill(taken.username);
    await page.getByLabel('Email', { exact: true }).fill(taken.email);
    await page.getByLabel('Password', { exact: true }).fill('longenough1');
    await page.getByLabel('Confirm Password', { exact: true }).fill('longenough1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    const message = (await alert(page).filter({ hasText: 'Username: ' }).textContent()) ?? '';
    expect(message).toMatch(/Email: .+\. Username: .+|Username: .+\. Email: .+/);
    await context.close();
  });

  it('shows every message of the forgot-password and reset screens', async () => {
    const { page, context } = await stack.newPage();

    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await alert(page).filter({ hasText: 'Please enter your email address' }).waitFor();
    // Unknown e-mails get the same answer as known ones: no account enumeration.
    await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page
      .getByText('Password reset email sent! Check your inbox and follow the instructions to reset your password.')
      .waitFor();

    await page.goto('/reset-password');
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();
    await page.getByText('Invalid or missing reset token. Please request a new password reset.').waitFor();
    await page.getByRole('button', { name: 'Request New Reset' }).click();
    await page.waitForURL('**/forgot-password');
    await page.goto('/reset-password');
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.waitForURL('**/login');

    await page.goto('/reset-password?token=not-a-real-token');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await alert(page).filter({ hasText: 'Please enter your new password in both fields' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('abcdef');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('abcdeg');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await alert(page).filter({ hasText: 'Passwords do not match' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await alert(page).filter({ hasText: 'Password must be at least 6 characters long' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('abcdef');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('abcdef');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await alert(page)
      .filter({ hasText: 'Invalid or expired reset token. Please request a new password reset.' })
      .waitFor();
    await context.close();
  });
});
