import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import { ReactionChips } from './ReactionChips';

const ann = { id: 'user_ann', username: 'ann', name: 'Ann' };
const bob = { id: 'user_bob', username: 'bob', name: 'Bob' };
const cy = { id: 'user_cy', username: 'cy', name: 'Cy' };

const meta = {
  title: 'Components/ReactionChips',
  component: ReactionChips,
  args: { viewerId: ann.id, onToggle: action('toggle') },
  decorators: [(Story) => <div style={{ maxWidth: 480, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof ReactionChips>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing yet: no list at all. */
export const Empty: Story = { args: { reactions: [] } };

export const One: Story = { args: { reactions: [{ emoji: '👍', count: 1, users: [bob] }] } };

/** The viewer's own reactions are pressed; the name says who reacted. */
export const Several: Story = {
  args: {
    reactions: [
      { emoji: '👍', count: 2, users: [ann, bob] },
      { emoji: '🎉', count: 1, users: [cy] },
      { emoji: '🏳️‍🌈', count: 3, users: [ann, bob, cy] },
    ],
  },
  play: async ({ canvasElement, args }) => {
    const chip = within(canvasElement).getByRole('button', { name: '👍 2: ann, bob' });
    await expect(chip).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(chip);
    await expect(args.onToggle).toBeDefined();
  },
};

/** Without onToggle (no one signed in, or a read-only view): the chips only show. */
export const ReadOnly: Story = { args: { reactions: [{ emoji: '👀', count: 1, users: [bob] }], onToggle: undefined } };
