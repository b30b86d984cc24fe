import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { BookmarkButton, LikeButton } from './DropReactions';

const drop = { id: 'drop00000000001', is_liked: false, like_count: 8, is_bookmarked: false };

function Reactions({ liked = false, bookmarked = false }: { liked?: boolean; bookmarked?: boolean }) {
  const shown = { ...drop, is_liked: liked, is_bookmarked: bookmarked, like_count: drop.like_count + (liked ? 1 : 0) };
  return (
    <div style={{ display: 'flex', gap: 8, padding: 16 }}>
      <LikeButton drop={shown} />
      <BookmarkButton drop={shown} />
    </div>
  );
}

/** Like (with its count) and Bookmark: toggle buttons (aria-pressed), updated at once, rolled back silently. */
const meta = {
  title: 'Drops/DropReactions',
  component: Reactions,
  decorators: [withConfab({ signedIn: true })],
} satisfies Meta<typeof Reactions>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

export const LikedAndBookmarked: Story = {
  args: { liked: true, bookmarked: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(canvas.getByRole('button', { name: /Bookmark/ })).toHaveAttribute('aria-pressed', 'true');
  },
};

/** Busy: while the like request is held the button is aria-disabled (and keeps focus). */
export const Busy: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
  play: async ({ canvasElement }) => {
    const like = within(canvasElement).getByRole('button', { name: /Like/ });
    like.focus();
    await userEvent.keyboard('{Enter}');
    await expect(like).toHaveAttribute('aria-disabled', 'true');
    await expect(like).toHaveFocus();
  },
};

export const RightToLeft: Story = { decorators: [withRtl] };
