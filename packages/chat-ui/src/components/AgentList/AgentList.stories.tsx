import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { AgentCardFrame } from '../AgentCardFrame/AgentCardFrame';
import { AgentList } from './AgentList';

const meta = {
  title: 'Parts/AgentList',
  component: AgentList,
  decorators: [withConfab({ signedIn: true })],
  args: { title: 'Your agents', loading: false, failed: false, onRetry: () => {}, empty: false, emptyText: 'You have no agents yet. Create one above.' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof AgentList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { loading: true } };

export const Empty: Story = { args: { empty: true } };

/** 'Failed to load agents.' with Try again. */
export const Failed: Story = { args: { failed: true } };

export const Populated: Story = {
  args: {
    children: (
      <>
        <AgentCardFrame agent={{ name: 'Echo Bot', username: 'echo_bot', description: 'Says it back.' }} badges={<span className="cf-presence cf-presence--online">Online</span>} error={null}>
          {null}
        </AgentCardFrame>
        <AgentCardFrame agent={{ name: 'Todo Keeper', username: 'todo_keeper', description: '' }} badges={<span className="cf-presence cf-presence--offline">Offline</span>} error={null}>
          {null}
        </AgentCardFrame>
      </>
    ),
  },
};
