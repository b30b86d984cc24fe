import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '../Button/Button';
import { AgentCardFrame } from './AgentCardFrame';

const meta = {
  title: 'Parts/AgentCardFrame',
  component: AgentCardFrame,
  args: {
    agent: { name: 'Echo Bot', username: 'echo_bot', description: 'Says back what it is told.' },
    badges: <span className="cf-presence cf-presence--online">Online</span>,
    error: null,
    children: (
      <div className="cf-agent-card__actions">
        <Button variant="danger">Delete</Button>
      </div>
    ),
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof AgentCardFrame>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Populated: Story = {};

/** No description: the paragraph is left out. */
export const WithoutDescription: Story = { args: { agent: { name: 'Todo Keeper', username: 'todo_keeper', description: '' } } };

/** The last action failed. */
export const WithError: Story = { args: { error: 'Failed to delete agent: Busy.' } };
