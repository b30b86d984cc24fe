import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse, json } from '@confab/client/testing/fakeBackend';
import { withConfab } from '../../storybook/withConfab';
import { ConfabAgentsScreen } from './ConfabAgentsScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/ConfabAgentsScreen',
  component: ConfabAgentsScreen,
  args: { confirm: () => true },
} satisfies Meta<typeof ConfabAgentsScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An admin: the hosted agents a server starts with (@email, @deep, @browse, @data, @drops). */
export const Populated: Story = { decorators: [withConfab({ signedIn: true, admin: true })] };

/** Anyone else sees that the page is for admins. */
export const NotAnAdmin: Story = { decorators: [withConfab({ signedIn: true })] };

export const Loading: Story = { decorators: [withConfab({ signedIn: true, admin: true, pending: true })] };

export const Empty: Story = {
  decorators: [withConfab({ signedIn: true, admin: true, configure: (backend) => backend.override('GET /api/admin/confab-agents', () => json(200, { agents: [] })) })],
};

export const LoadFailed: Story = {
  decorators: [withConfab({ signedIn: true, admin: true, configure: (backend) => backend.override('GET /api/admin/confab-agents', () => errorResponse(500, 'Down.')) })],
};

export const DisplayNameRequired: Story = {
  decorators: [withConfab({ signedIn: true, admin: true })],
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Create Hosted Agent' }));
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Please enter a display name');
  },
};

/** A persona created: its prompt written on several lines, then the confirmation and the new card in the list. */
export const Created: Story = {
  decorators: [withConfab({ signedIn: true, admin: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const form = within(canvas.getByRole('form', { name: 'Create a hosted agent' }));
    await userEvent.type(form.getByLabelText('Display name'), 'Editor');
    await userEvent.type(form.getByLabelText('Description'), 'You are a careful editor.{Enter}Answer in five sentences at most.{Enter}Quote what you change.');
    await userEvent.click(form.getByRole('button', { name: 'Create Hosted Agent' }));
    await expect(await canvas.findByText(/^Created Editor\. People mention it as @editor/)).toBeVisible();
    await expect(canvas.getByRole('article', { name: 'Editor' })).toBeVisible();
  },
};

export const DeleteFailed: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      admin: true,
      configure: (backend) => backend.override('DELETE /api/admin/confab-agents/agentdeep000000', () => errorResponse(500, 'Busy.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const deep = await canvas.findByRole('article', { name: 'Deep Research' });
    await userEvent.click(within(deep).getByRole('button', { name: 'Delete' }));
  },
};

/** Populated on a phone (390×844). */
export const Narrow: Story = { ...Populated, ...narrow, tags: ['narrow'] };

/** Populated, right to left. */
export const RightToLeft: Story = { ...Populated, parameters: { ...Populated.parameters, direction: 'rtl' } };
