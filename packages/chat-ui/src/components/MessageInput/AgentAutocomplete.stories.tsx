import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { storyHostedAgents } from '../../storybook/storyAgents';
import { AgentAutocomplete } from './AgentAutocomplete';

const meta = {
  title: 'Components/MessageInput/AgentAutocomplete',
  component: AgentAutocomplete,
  args: {
    state: { status: 'idle' },
    listboxId: 'story-agents',
    optionId: (index: number) => `story-agents-option-${index}`,
    activeIndex: 0,
    onPick: action('pick'),
    onActivate: action('activate'),
  },
  decorators: [(Story) => <div style={{ maxWidth: 560, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof AgentAutocomplete>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Hidden: no @ and word before the caret (renders nothing). */
export const Hidden: Story = {};

export const Searching: Story = { args: { state: { status: 'searching', query: 'de' } } };

export const Results: Story = {
  args: { state: { status: 'results', query: 'd', agents: storyHostedAgents.filter((agent) => agent.username.startsWith('d')) }, activeIndex: 1 },
};

export const NoAgents: Story = { args: { state: { status: 'none', query: 'zzz' } } };

/** A bare @ in a chat that allows no agent. */
export const NoAgentsInChat: Story = { args: { state: { status: 'none', query: '' } } };

export const Failed: Story = { args: { state: { status: 'error', query: 'de', message: 'Something went wrong.' } } };
