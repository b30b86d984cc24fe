import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { ChatHome, EmptyChatState } from './AppShell';

/** /chat before a chat is chosen: the empty state and the agent search. */
const meta = {
  title: 'Screens/AppShell/ChatHome',
  component: ChatHome,
  decorators: [(Story) => <main style={{ minHeight: '100vh' }}><Story /></main>, withConfab({ signedIn: true })],
} satisfies Meta<typeof ChatHome>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Select a chat to get started')).toBeVisible();
  },
};

/** Just the empty state (the main area of /chat). */
export const EmptyStateOnly: Story = { render: () => <EmptyChatState /> };

/** Searching the agents from the keyboard: live results, each with a Chat button. */
export const SearchingAgents: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox'), 'deep');
    await expect(await canvas.findByRole('button', { name: 'Chat with @deep' }, { timeout: 3000 })).toBeVisible();
  },
};

/** Phone: the header shows the menu toggle and the compact logo. */
export const Narrow: Story = {
  ...narrow,
  tags: ['narrow'],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Open sidebar' })).toBeVisible();
  },
};

export const RightToLeft: Story = { decorators: [withRtl] };
