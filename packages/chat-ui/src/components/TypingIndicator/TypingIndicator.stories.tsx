import type { Meta, StoryObj } from '@storybook/react-vite';
import { TypingIndicator } from './TypingIndicator';
import { narrow } from '../../storybook/storyStates';

const ann = { user_id: 'ann000000000001', username: 'ann', name: 'Ann' };
const bob = { user_id: 'bob000000000001', username: 'bob', name: 'Bob' };
const carol = { user_id: 'carol0000000001', username: 'carol', name: 'Carol' };

const meta = {
  title: 'Components/TypingIndicator',
  component: TypingIndicator,
  args: { typists: [] },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof TypingIndicator>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Nobody types: an empty live region (announcements need it present beforehand). */
export const Nobody: Story = {};

export const OnePerson: Story = { args: { typists: [ann] } };

export const TwoPeople: Story = { args: { typists: [ann, bob] } };

export const SeveralPeople: Story = { args: { typists: [ann, bob, carol] } };

/** TwoPeople on a phone (390×844). */
export const Narrow: Story = { ...TwoPeople, ...narrow, tags: ['narrow'] };
