import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { storyChats } from '../../storybook/storyData';
import { Sidebar } from './Sidebar';

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
