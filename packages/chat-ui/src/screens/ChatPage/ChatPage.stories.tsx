import type { Meta, StoryObj } from '@storybook/react-vite';
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
