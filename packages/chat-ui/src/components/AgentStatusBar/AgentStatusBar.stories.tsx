import type { Meta, StoryObj } from '@storybook/react-vite';
import { AgentStatusBar } from './AgentStatusBar';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Components/AgentStatusBar',
  component: AgentStatusBar,
  args: { statuses: [] },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof AgentStatusBar>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Nobody at work: an empty live region (announcements need it present beforehand). */
export const Idle: Story = {};

export const OneAgent: Story = {
  args: { statuses: [{ chat_id: 'chat00000000001', agent: { id: 'agentdeep00000', username: 'deep', name: 'Deep Research' }, text: 'is searching…' }] },
};

export const SeveralAgents: Story = {
  args: {
    statuses: [
      { chat_id: 'chat00000000001', agent: { id: 'agentdeep00000', username: 'deep', name: 'Deep Research' }, text: 'is reading 12 sources…' },
      { chat_id: 'chat00000000001', agent: { id: 'agentdata00000', username: 'data', name: 'Data' }, text: 'is running a query on sales.csv…' },
    ],
  },
};

/** SeveralAgents on a phone (390×844). */
export const Narrow: Story = { ...SeveralAgents, ...narrow, tags: ['narrow'] };

/** SeveralAgents, right to left. */
export const RightToLeft: Story = { ...SeveralAgents, parameters: { ...SeveralAgents.parameters, direction: 'rtl' } };
