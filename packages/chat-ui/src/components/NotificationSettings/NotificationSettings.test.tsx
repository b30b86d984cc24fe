import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browserNotificationsStorageKey } from '@confab/client';
import { createFakeBackend, errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { useConfabClient, useConfabStore } from '../../provider/hooks';
import { NotificationSettings } from './NotificationSettings';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

/** As My Profile shows it: to a signed-in person. */
function Section() {
  const client = useConfabClient();
  const signedIn = useConfabStore((state) => state.user !== null);
  return signedIn ? <NotificationSettings notifications={client.notifications!} /> : null;
}

/**
 * jsdom has no Notification API: this stands in for the browser's, answering the permission
 * prompt as a person would, and counting prompts (there must be none before the click).
 */
function browserWithNotifications(initial: NotificationPermission, answer: NotificationPermission) {
  const prompts = { count: 0 };
  const Notification = {
    permission: initial,
    requestPermission: async () => {
      prompts.count += 1;
      Notification.permission = answer;
      return answer;
    },
  };
  vi.stubGlobal('Notification', Notification);
  return prompts;
}

async function setup(configure?: (backend: FakeBackend) => void) {
  const backend = createFakeBackend({ users: [alice] });
  configure?.(backend);
  const result = renderWithConfab(<Section />, { backend });
  await act(async () => {
    await result.client.login('alice', 'wonderland');
  });
  return { ...result, backend };
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('NotificationSettings', () => {
  it('asks for the permission only on the click, and shows browser notifications on', async () => {
    const prompts = browserWithNotifications('default', 'granted');
    const { user } = await setup();
    const turnOn = await screen.findByRole('button', { name: 'Turn on browser notifications' });
    expect(screen.getByText('Browser notifications are off for this device.')).toBeInTheDocument();
    expect(prompts.count).toBe(0);
    await user.click(turnOn);
    expect(prompts.count).toBe(1);
    expect(await screen.findByText('Browser notifications are on for this device.')).toBeInTheDocument();
    expect(localStorage.getItem(browserNotificationsStorageKey)).toBe('on');
    await user.click(screen.getByRole('button', { name: 'Turn off browser notifications' }));
    expect(screen.getByText('Browser notifications are off for this device.')).toBeInTheDocument();
    expect(localStorage.getItem(browserNotificationsStorageKey)).toBeNull();
  });

  it('says when the browser blocks notifications, or has none', async () => {
    browserWithNotifications('default', 'denied');
    const { user } = await setup();
    await user.click(await screen.findByRole('button', { name: 'Turn on browser notifications' }));
    expect(await screen.findByText('Blocked by the browser: allow notifications for this site in its settings.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on browser notifications' })).not.toBeInTheDocument();
  });

  it('says so when the browser has no notifications', async () => {
    vi.stubGlobal('Notification', undefined);
    await setup();
    expect(await screen.findByText('This browser does not support notifications.')).toBeInTheDocument();
  });

  it('switches the e-mails about missed mentions off and on', async () => {
    const { user, backend } = await setup();
    const mails = await screen.findByRole('switch', { name: 'E-mail me about mentions I miss' });
    expect(mails).toBeChecked();
    expect(mails).toHaveAccessibleDescription('One mail per chat when a mention of you or a reply to you stays unread while you are away.');
    await user.click(mails);
    await waitFor(() => expect(mails).not.toBeChecked());
    expect(backend.users[0]?.email_notifications).toBe(false);
    await user.click(mails);
    await waitFor(() => expect(mails).toBeChecked());
  });

  it('cannot switch them on for an account without a mailbox', async () => {
    await setup((backend) => {
      backend.users[0]!.email = 'user_a1b2c3d4e5@temporary.confab.invalid';
    });
    const mails = await screen.findByRole('switch', { name: 'E-mail me about mentions I miss' });
    expect(mails).toBeDisabled();
    expect(mails).not.toBeChecked();
    expect(mails).toHaveAccessibleDescription('This account has no e-mail address to write to.');
  });

  it('announces failures to load and to save', async () => {
    let failLoad = true;
    const { user, backend } = await setup((fake) =>
      fake.override('GET /api/notifications/settings', () => (failLoad ? errorResponse(500, 'boom') : json(200, { email_notifications: true, email_available: true }))),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load e-mail settings.');
    failLoad = false;
    backend.override('POST /api/notifications/settings', () => errorResponse(500, 'boom'));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const mails = await screen.findByRole('switch', { name: 'E-mail me about mentions I miss' });
    await user.click(mails);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to change e-mail notifications.');
    expect(mails).toBeChecked();
  });
});
