import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { storyChats } from '../../storybook/storyData';
import { Sidebar } from './Sidebar';
import { chatRecord } from '../../testing/builders';
import { storyUserRecord } from '../../storybook/storyClient';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';

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
