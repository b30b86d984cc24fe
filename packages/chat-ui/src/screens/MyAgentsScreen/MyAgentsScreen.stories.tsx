import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse, json } from '@confab/client/testing/fakeBackend';
import { withConfab } from '../../storybook/withConfab';
import { AgentKeyNotice } from './AgentKeyNotice';
import { MyAgentsScreen } from './MyAgentsScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/MyAgentsScreen',
  component: MyAgentsScreen,
  args: { confirm: () => true, copyText: async () => undefined },
} satisfies Meta<typeof MyAgentsScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Alice's agents: Echo Bot online with its dev room, Todo Keeper offline ('Dev room pending...'). */
export const Populated: Story = { decorators: [withConfab({ signedIn: true })] };

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };

export const Empty: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/agents/mine', () => json(200, { agents: [] })) })],
};

export const LoadFailed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/agents/mine', () => errorResponse(500, 'Down.')) })],
};

export const NameRequired: Story = {
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Create Agent' }));
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('Please enter an agent name');
  },
};

/** After creating: the key shown once, with Copy and the warning. */
export const KeyShownOnce: Story = {
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Name'), 'Weather Bot');
    await userEvent.click(canvas.getByRole('button', { name: 'Create Agent' }));
    await expect(await canvas.findByRole('region', { name: 'API key for @weather_bot' })).toBeVisible();
  },
};

export const CreateFailed: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) =>
        backend.override('POST /api/agents', () => errorResponse(400, 'Failed to create agent.', { username: { code: 'validation_not_unique', message: 'The username is taken.' } })),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Name'), 'Echo Bot');
    await userEvent.type(canvas.getByLabelText('Username (optional)'), 'echo_bot');
    await userEvent.click(canvas.getByRole('button', { name: 'Create Agent' }));
  },
};

/** The key notice alone, after a new key replaced the old one. */
export const KeyAfterRotation: StoryObj<typeof AgentKeyNotice> = {
  render: () => (
    <div style={{ maxWidth: 640, padding: 16 }}>
      <AgentKeyNotice username="echo_bot" apiKey={`cfk_${'x'.repeat(43)}`} reason="rotated" onDismiss={() => undefined} copyText={async () => undefined} />
    </div>
  ),
};

/** Populated on a phone (390×844). */
export const Narrow: Story = { ...Populated, ...narrow, tags: ['narrow'] };

/** Populated, right to left. */
export const RightToLeft: Story = { ...Populated, parameters: { ...Populated.parameters, direction: 'rtl' } };
