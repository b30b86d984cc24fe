import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ChatRecord } from '@confab/client';
import { withConfab } from '../../storybook/withConfab';
import { AppShell } from './AppShell';

const meta = {
  title: 'Screens/AppShell',
  component: AppShell,
  decorators: [withConfab({ signedIn: true })],
} satisfies Meta<typeof AppShell>;

export default meta;
type Story = StoryObj<typeof meta>;

function chat(id: string, name: string, description = ''): ChatRecord {
  return { id, name, description, creator: 'storyuser000001', participants: [], admins: [], created: '', updated: '' };
}

const chats = [
  chat('chat00000000001', 'Product launch', 'Planning the v2 release'),
  chat('chat00000000002', 'Research with @deep', 'Market sizing for agents'),
  chat('chat00000000003', 'Random'),
];

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

export const CustomContent: Story = {
  args: { children: <p style={{ padding: 24 }}>A chat would render here.</p> },
};
