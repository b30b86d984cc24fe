import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { storyChats } from '../../storybook/storyData';
import { AppShell } from './AppShell';

const meta = {
  title: 'Screens/AppShell',
  component: AppShell,
  decorators: [withConfab({ signedIn: true })],
} satisfies Meta<typeof AppShell>;

export default meta;
type Story = StoryObj<typeof meta>;

const chats = storyChats;

const mobile = { viewport: { value: 'mobile1', isRotated: false } };

/** Signed in, no chats yet: the empty main area. */
export const Empty: Story = {};

export const WithChats: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats } })],
};

/** Small screen with the drawer open over the overlay (tap the overlay or press Escape to close). */
export const MobileSidebarOpen: Story = {
  globals: mobile,
  decorators: [withConfab({ signedIn: true, state: { chats, sidebarOpen: true } })],
};

export const MobileSidebarClosed: Story = {
  globals: mobile,
  decorators: [withConfab({ signedIn: true, state: { chats } })],
};

export const ChatsLoading: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
};

export const ChatsError: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/collections/chats/records', () => new Response('{}', { status: 500 })) })],
};

export const CustomContent: Story = {
  args: { children: <p style={{ padding: 24 }}>A chat would render here.</p> },
};
