import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { storyChats } from '../../storybook/storyData';
import { AppShell } from './AppShell';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { chatRecord } from '../../testing/builders';

const meta = {
  title: 'Screens/AppShell',
  component: AppShell,
  decorators: [withConfab({ fill: true, signedIn: true })],
} satisfies Meta<typeof AppShell>;

export default meta;
type Story = StoryObj<typeof meta>;

const chats = storyChats;


/** Signed in, no chats yet: the empty main area. */
export const Empty: Story = {};

export const WithChats: Story = {
  decorators: [withConfab({ fill: true, signedIn: true, state: { chats } })],
};

/** Small screen with the drawer open over the overlay (tap the overlay or press Escape to close). */
export const MobileSidebarOpen: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [withConfab({ fill: true, signedIn: true, state: { chats, sidebarOpen: true } })],
};

export const MobileSidebarClosed: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [withConfab({ fill: true, signedIn: true, state: { chats } })],
};

export const ChatsLoading: Story = {
  decorators: [withConfab({ fill: true, signedIn: true, pending: true })],
};

export const ChatsError: Story = {
  decorators: [withConfab({ fill: true, signedIn: true, configure: (backend) => backend.override('GET /api/collections/chats/records', () => new Response('{}', { status: 500 })) })],
};

/** Two pending invitations above the chat list; Accept opens the chat, Decline drops it. */
export const WithInvitations: Story = {
  decorators: [
    withConfab({
      fill: true,
      signedIn: true,
      state: {
        chats,
        invitations: [
          {
            id: 'invitation00001',
            chat: { id: 'chat00000000042', name: 'Design reviews' },
            invited_by: { username: 'bob', name: 'Bob Builder' },
            created: '2026-01-01 09:00:00.000Z',
            expires_at: '2026-01-08 09:00:00.000Z',
          },
          {
            id: 'invitation00002',
            chat: { id: 'chat00000000043', name: 'Hiring' },
            invited_by: { username: 'carol', name: '' },
            created: '2026-01-01 08:00:00.000Z',
            expires_at: '2026-01-08 08:00:00.000Z',
          },
        ],
      },
    }),
  ],
};

export const CustomContent: Story = {
  args: { children: <p style={{ padding: 24 }}>A chat would render here.</p> },
};

/** Escape closes the open drawer on a phone. */
export const MobileSidebarEscape: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [withConfab({ fill: true, signedIn: true, state: { chats } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Open sidebar' }));
    await expect(await canvas.findByRole('button', { name: 'New Chat' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(canvas.getByRole('button', { name: 'Open sidebar' })).toHaveAttribute('aria-expanded', 'false');
  },
};

export const RightToLeft: Story = {
  decorators: [withRtl, withConfab({ fill: true, signedIn: true, state: { chats: [chatRecord({ id: 'chatrtl00000001', name: rtlText.chat, description: rtlText.description }), ...chats] } })],
};
