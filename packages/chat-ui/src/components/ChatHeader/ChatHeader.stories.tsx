import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { withConfab } from '../../storybook/withConfab';
import { ChatHeader, type ChatHeaderProps } from './ChatHeader';
import { expect, userEvent, within } from 'storybook/test';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';

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
  ...narrow,
  tags: ['narrow'],
  decorators: [withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } })],
};

const connectedState = withConfab({ signedIn: true, state: { connectionState: 'connected', isConnected: true } });

export const LongName: Story = { args: { chat: { id: 'chat00000000001', name: longNames.chat } }, decorators: [connectedState] };

/** A long name on a phone: the header stays compact, the name truncates. */
export const LongNameNarrow: Story = { ...narrow, tags: ['narrow'], args: { chat: { id: 'chat00000000001', name: longNames.chat } }, decorators: [connectedState] };

export const RightToLeft: Story = { args: { chat: { id: 'chat00000000001', name: rtlText.chat } }, decorators: [withRtl, connectedState] };

/** Searching from the keyboard filters the messages as one types. */
export const SearchWithKeyboard: Story = {
  decorators: [connectedState],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const search = canvas.getByRole('searchbox', { name: 'Search messages' });
    await userEvent.click(search);
    await userEvent.keyboard('launch');
    await expect(search).toHaveValue('launch');
  },
};

/** The phone's action menu from the keyboard: Enter opens it, Escape closes it and returns focus to its button. */
export const ActionsMenuNarrow: Story = {
  ...narrow,
  tags: ['narrow'],
  decorators: [connectedState],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const toggle = canvas.getByRole('button', { name: 'Chat actions' });
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const invite = canvas.getByRole('button', { name: 'Invite User' });
    await expect(invite).toBeVisible();
    invite.focus();
    await userEvent.keyboard('{Escape}');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveFocus();
  },
};
