import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { storyChats, storyUnreadChats } from '../../storybook/storyData';
import { Sidebar } from './Sidebar';
import { chatRecord } from '../../testing/builders';
import { storyUserRecord } from '../../storybook/storyClient';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'Components/Sidebar',
  component: Sidebar,
  decorators: [(Story) => <div style={{ height: '100vh', display: 'flex' }}><Story /></div>],
} satisfies Meta<typeof Sidebar>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { decorators: [withConfab({ signedIn: true, state: { chatsLoading: true } })] };

export const Empty: Story = { decorators: [withConfab({ signedIn: true })] };

export const Error: Story = {
  decorators: [withConfab({ signedIn: true, state: { chatsError: 'Network error' } })],
};

export const Populated: Story = { decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })] };

/** The chat open in the main area is highlighted (aria-current="page"). */
export const ActiveChat: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats, currentChat: storyChats[1] ?? null } })],
};

/**
 * Unread chats: bold names with a count, mentions in the accent colour, muted chats as a dot (or
 * their mention count), '99+' above 99. Each entry's name says it: 'Product launch, 3 unread'.
 */
export const Unread: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyUnreadChats } })],
  play: async ({ canvasElement }) => {
    const chats = within(within(canvasElement).getByRole('navigation', { name: 'Chats' }));
    await expect(chats.getByRole('link', { name: 'Product launch, 3 unread' })).toBeVisible();
    await expect(chats.getByRole('link', { name: 'Research with @deep, 12 unread, 2 mentions' })).toBeVisible();
    await expect(chats.getByRole('link', { name: 'Launch Plan, unread' })).toBeVisible();
    await expect(chats.getByRole('link', { name: 'Support rota, unread, 1 mention' })).toBeVisible();
  },
};

/** The open chat shows no badge (it is being read), even while its messages are still counted. */
export const UnreadWithActiveChat: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyUnreadChats, currentChat: storyUnreadChats[0] ?? null } })],
  play: async ({ canvasElement }) => {
    const chats = within(within(canvasElement).getByRole('navigation', { name: 'Chats' }));
    await expect(chats.getByRole('link', { name: 'Product launch' })).toHaveAttribute('aria-current', 'page');
  },
};

export const LongNames: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: {
        user: { ...storyUserRecord, name: longNames.person },
        chats: [chatRecord({ id: 'chatlong0000001', name: longNames.chat, description: longNames.chat }), chatRecord({ id: 'chatlong0000002', name: longNames.word }), ...storyChats],
      },
    }),
  ],
};

export const RightToLeft: Story = {
  decorators: [
    withRtl,
    withConfab({
      signedIn: true,
      state: { user: { ...storyUserRecord, name: rtlText.person }, chats: [chatRecord({ id: 'chatrtl00000001', name: rtlText.chat, description: rtlText.description }), ...storyChats] },
    }),
  ],
};

/** Phone: the sidebar is a drawer, here open. */
export const Narrow: Story = { ...narrow, tags: ['narrow'], decorators: [withConfab({ signedIn: true, state: { chats: storyChats, sidebarOpen: true } })] };
