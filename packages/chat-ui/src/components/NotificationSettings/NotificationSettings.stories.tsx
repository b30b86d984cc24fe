import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import type { BrowserNotificationPermission } from '@confab/client';
import { useConfabClient } from '../../provider/hooks';
import { storyUserRecord } from '../../storybook/storyClient';
import { withConfab } from '../../storybook/withConfab';
import { NotificationSettings } from './NotificationSettings';

/**
 * The story client's notifications with the browser's side fixed, so each story shows one browser
 * state whatever the browser running Storybook allows.
 */
function WithBrowser({ permission, enabled = false }: { permission: BrowserNotificationPermission; enabled?: boolean }) {
  const client = useConfabClient();
  const notifications = client.notifications!;
  return (
    <NotificationSettings
      notifications={{
        settings: () => notifications.settings(),
        setEmail: (value) => notifications.setEmail(value),
        browserPermission: () => permission,
        browserEnabled: () => enabled,
        enableBrowser: async () => permission,
        disableBrowser: () => {},
        showInBrowser: () => () => {},
      }}
    />
  );
}

const meta = {
  title: 'Parts/NotificationSettings',
  component: WithBrowser,
  parameters: { layout: 'padded' },
  decorators: [withConfab({ signedIn: true })],
  args: { permission: 'default' },
} satisfies Meta<typeof WithBrowser>;

export default meta;
type Story = StoryObj<typeof meta>;

export const BrowserOff: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('switch', { name: 'E-mail me about mentions I miss' })).toBeChecked();
    await expect(canvas.getByRole('button', { name: 'Turn on browser notifications' })).toBeEnabled();
  },
};
export const BrowserOn: Story = { args: { permission: 'granted', enabled: true } };
export const BlockedByTheBrowser: Story = { args: { permission: 'denied' } };
export const BrowserWithoutNotifications: Story = { args: { permission: 'unsupported' } };
export const EmailOff: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) => {
        backend.users.find((user) => user.id === storyUserRecord.id)!.email_notifications = false;
      },
    }),
  ],
};
export const NoMailbox: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) => {
        backend.users.find((user) => user.id === storyUserRecord.id)!.email = 'user_a1b2c3d4e5@temporary.confab.invalid';
      },
    }),
  ],
};
export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };
export const LoadFailed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/notifications/settings', () => errorResponse(500, 'boom')) })],
};
