import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ChatRecord } from '@confab/client';
import { AppShell } from '../AppShell/AppShell';
import { withConfab } from '../../storybook/withConfab';
import { storyChats } from '../../storybook/storyData';
import { storyUserRecord } from '../../storybook/storyClient';
import { searchResultsData } from '../../testing/builders';
import { ChatPage } from './ChatPage';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, rtlText, withRtl } from '../../storybook/storyStates';

const chatId = storyChats[0]?.id ?? '';

const meta = {
  title: 'Screens/ChatPage',
  component: ChatPage,
  args: { chatId },
  render: (args) => (
    <AppShell>
      <ChatPage {...args} />
    </AppShell>
  ),
} satisfies Meta<typeof ChatPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const connected = { chats: storyChats, connectionState: 'connected' as const, isConnected: true };

/** A new chat: the welcome with the agent suggestions. */
export const Empty: Story = { decorators: [withConfab({ signedIn: true, state: connected })] };

export const Conversation: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: connected,
      configure: (backend) => {
        backend.addMessages(chatId, 30, [storyUserRecord.id, 'storyuser000002', 'storyuser000003', 'agent0000000001'], (index) =>
          index === 29 ? JSON.stringify(searchResultsData(20)) : index % 5 === 0 ? `**Update ${index + 1}**: see [the plan](https://example.com)` : `Message ${index + 1}`,
        );
      },
    }),
  ],
};

/** 10,000 messages on the server: the latest page opens, older pages load while scrolling up. */
export const TenThousandMessagesOnServer: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: connected,
      configure: (backend) => {
        backend.addMessages(chatId, 10_000, ['storyuser000002', storyUserRecord.id]);
      },
    }),
  ],
};

/**
 * Alice comes back to 15 unread messages (one mentions her): the chat opens at the 'New messages'
 * divider, and what she sees is marked read. Another chat in the sidebar still counts its unread.
 */
export const UnreadMessages: Story = {
  decorators: [
    withConfab({
      // The page fills the canvas, so the list scrolls and opens at the divider.
      fill: true,
      signedIn: true,
      // The list as the server will answer it: Alice read up to message 25 of 40.
      state: { ...connected, chats: [{ ...(storyChats[0] as ChatRecord), last_seq: 40, last_read_seq: 25, unread_count: 15, mention_count: 1 }, ...storyChats.slice(1)] },
      configure: (backend) => {
        backend.addMessages(chatId, 40, ['storyuser000002', 'storyuser000003'], (index) => (index === 30 ? '@alice can you check the launch notes?' : `Message ${index + 1}`));
        const chat = backend.chats.find((candidate) => candidate.id === chatId);
        if (chat) chat.last_read = { [storyUserRecord.id]: 25 };
        const other = storyChats[1]?.id ?? '';
        backend.addMessages(other, 6, ['storyuser000002']);
        const otherChat = backend.chats.find((candidate) => candidate.id === other);
        if (otherChat) otherChat.last_read = { [storyUserRecord.id]: 2 };
      },
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('separator', { name: 'New messages' })).toBeVisible();
    await expect(await canvas.findByRole('link', { name: 'Research with @deep, 4 unread' })).toBeVisible();
  },
};

export const ConnectionLost: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: storyChats, connectionState: 'closed' },
      configure: (backend) => {
        backend.addMessages(chatId, 5, ['storyuser000002', storyUserRecord.id]);
      },
    }),
  ],
};

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true, state: connected })] };

export const NotFound: Story = { args: { chatId: 'chat_missing_01' }, decorators: [withConfab({ signedIn: true, state: connected })] };

/** Sending a message: typed, Enter, shown in the list (the fake server stores it). */
export const SendMessage: Story = {
  decorators: [withConfab({ signedIn: true, state: connected })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const field = await canvas.findByLabelText('Message');
    await userEvent.type(field, 'Shall we ship on Monday?{Enter}');
    await expect(await canvas.findByText('Shall we ship on Monday?')).toBeVisible();
    await expect(field).toHaveValue('');
  },
};

export const Narrow: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [
    withConfab({
      signedIn: true,
      state: connected,
      configure: (backend) => {
        backend.addMessages(chatId, 8, ['storyuser000002', storyUserRecord.id]);
      },
    }),
  ],
};

export const RightToLeft: Story = {
  decorators: [
    withRtl,
    withConfab({
      signedIn: true,
      state: connected,
      configure: (backend) => {
        backend.addMessages(chatId, 4, ['storyuser000002', storyUserRecord.id], (index) => (index % 2 === 0 ? rtlText.message : rtlText.hebrew));
      },
    }),
  ],
};
