import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { storyDeveloperAgents, storyHostedAgents } from '../../storybook/storyAgents';
import { withConfab } from '../../storybook/withConfab';
import { CreateChatScreen } from './CreateChatScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/CreateChatScreen',
  component: CreateChatScreen,
} satisfies Meta<typeof CreateChatScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = { decorators: [withConfab({ signedIn: true })] };

export const ValidationError: Story = {
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Create Chat' }));
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Please enter a chat name');
  },
};

export const Creating: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Chat name'), 'Launch plan');
    await userEvent.click(canvas.getByRole('button', { name: 'Create Chat' }));
    await expect(canvas.getByRole('button', { name: 'Creating...' })).toBeDisabled();
  },
};

export const ServerError: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) => backend.override('POST /api/collections/chats/records', () => errorResponse(400, 'Failed to create record.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Chat name'), 'Launch plan');
    await userEvent.click(canvas.getByRole('button', { name: 'Create Chat' }));
  },
};

/** Opened from the agent search with @drops preselected: the first message of docs/PRODUCT.md §7 is prefilled. */
export const WithPreselectedDrops: Story = {
  decorators: [withConfab({ signedIn: true })],
  args: { preselectedAgent: storyHostedAgents.find((agent) => agent.username === 'drops') ?? null },
};

/** A developer agent preselected: its mention is prefilled for the person to finish. */
export const WithPreselectedDeveloperAgent: Story = {
  decorators: [withConfab({ signedIn: true })],
  args: { preselectedAgent: storyDeveloperAgents[0] ?? null },
};

/** Without a preselection the agent search is offered below the form. */
export const ChoosingAnAgent: Story = {
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search agents' }), 'd');
    await expect(await canvas.findByRole('list', { name: 'Agents found' })).toBeVisible();
  },
};

/** Idle on a phone (390×844). */
export const Narrow: Story = { ...Idle, ...narrow, tags: ['narrow'] };

/** Idle, right to left. */
export const RightToLeft: Story = { ...Idle, parameters: { ...Idle.parameters, direction: 'rtl' } };
