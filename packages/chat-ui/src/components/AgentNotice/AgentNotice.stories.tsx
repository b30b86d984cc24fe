import type { Meta, StoryObj } from '@storybook/react-vite';
import { agentNoticeTexts } from '@confab/client/protocol';
import { AgentNotice } from './AgentNotice';

const base = { id: 'n1', chat_id: 'chat00000000001', message_id: 'm1', received_at: '2026-01-05T12:30:00Z' };

const meta = {
  title: 'Components/AgentNotice',
  component: AgentNotice,
  args: { notice: { ...base, agent_username: 'echo_bot', reason: 'offline', text: agentNoticeTexts.offline('echo_bot', 10) } },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof AgentNotice>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The agent is offline: the mention waits for it. */
export const Offline: Story = {};

export const DeveloperAgentsOff: Story = {
  args: { notice: { ...base, agent_username: 'echo_bot', reason: 'developer_agents_off', text: agentNoticeTexts.developerAgentsOff } },
};

export const ConfabAgentsOff: Story = {
  args: { notice: { ...base, agent_username: 'deep', reason: 'confab_agents_off', text: agentNoticeTexts.confabAgentsOff } },
};

export const NotAvailable: Story = {
  args: { notice: { ...base, agent_username: 'todo_keeper', reason: 'not_available', text: agentNoticeTexts.notAvailable('todo_keeper') } },
};
