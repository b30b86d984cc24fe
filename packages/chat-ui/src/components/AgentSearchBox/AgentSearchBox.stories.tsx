import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { withConfab } from '../../storybook/withConfab';
import { AgentSearchBox } from './AgentSearchBox';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Components/AgentSearchBox',
  component: AgentSearchBox,
  decorators: [(Story) => <div style={{ maxWidth: 640, padding: 16 }}><Story /></div>, withConfab({ signedIn: true })],
} satisfies Meta<typeof AgentSearchBox>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Before typing: nothing is searched. */
export const Idle: Story = {};

/** The request held: 'Searching agents...'. */
export const Searching: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByRole('searchbox', { name: 'Search agents' }), 'de');
  },
};

/** Live results, each with a Chat button that opens /chat/new with the agent preselected. */
export const Results: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search agents' }), 'd');
    await expect(await canvas.findByRole('list', { name: 'Agents found' })).toBeVisible();
  },
};

export const NoAgents: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search agents' }), 'zebra');
    await expect(await canvas.findByText('No agents found for "zebra"')).toBeVisible();
  },
};

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/agents/search', () => errorResponse(500, 'Agent search is unavailable.')) })],
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByRole('searchbox', { name: 'Search agents' }), 'deep');
  },
};

/** Results on a phone (390×844). */
export const Narrow: Story = { ...Results, ...narrow, tags: ['narrow'] };

/** Results, right to left. */
export const RightToLeft: Story = { ...Results, parameters: { ...Results.parameters, direction: 'rtl' } };
