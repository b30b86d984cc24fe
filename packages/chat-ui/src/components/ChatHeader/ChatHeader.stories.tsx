import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { withConfab } from '../../storybook/withConfab';
import { ChatHeader, type ChatHeaderProps } from './ChatHeader';

function Stateful(props: Partial<ChatHeaderProps>) {
  const [query, setQuery] = useState(props.searchQuery ?? '');
  return <ChatHeader chat={{ id: 'chat00000000001', name: 'Product launch' }} searchQuery={query} onSearchChange={setQuery} {...props} />;
}

const meta = {
  title: 'Components/ChatHeader',
  component: Stateful,
  args: { onOpenFiles: action('open files'), onCreateDrop: action('create drop') },
} satisfies Meta<typeof Stateful>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Connected: Story = { decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })] };

export const Connecting: Story = { decorators: [withConfab({ signedIn: true, state: { connectionState: 'connecting' } })] };

export const ConnectionLost: Story = { decorators: [withConfab({ signedIn: true, state: { connectionState: 'closed' } })] };

export const Searching: Story = {
  args: { searchQuery: 'launch' },
  decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })],
};

/** Without files/drop handlers (those arrive with later issues) their buttons are disabled. */
export const WithoutPanels: Story = {
  args: { onOpenFiles: undefined, onCreateDrop: undefined },
  decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })],
};

/** A participant who is not an admin: Invite User is disabled, with the reason as its description and tooltip. */
export const NotAdmin: Story = {
  args: { canInvite: false },
  decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })],
};

export const SmallScreen: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })],
};
