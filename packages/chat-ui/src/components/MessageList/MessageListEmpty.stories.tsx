import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { MessageListEmpty } from './MessageListEmpty';

/** An empty chat: the welcome and the agents to mention (@email, @deep, @browse, @data). */
const meta = {
  title: 'Components/MessageList/MessageListEmpty',
  component: MessageListEmpty,
  args: { userName: 'Alice' },
  decorators: [(Story) => <main style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}><Story /></main>],
} satisfies Meta<typeof MessageListEmpty>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Welcome, Alice!' })).toBeVisible();
    const suggestions = within(canvas.getByRole('list', { name: 'Agent suggestions' })).getAllByRole('listitem');
    await expect(suggestions.map((item) => item.textContent?.split(' ')[0])).toEqual(['@email', '@deep', '@browse', '@data']);
  },
};

export const WithoutName: Story = { args: { userName: undefined } };

export const LongName: Story = { args: { userName: longNames.person } };

export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = { args: { userName: rtlText.person }, decorators: [withRtl] };
