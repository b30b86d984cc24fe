import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { FeedTabs } from './FeedTabs';

/** Following, Trending, Discover and Saved as links; the open one is aria-current="page". */
const meta = {
  title: 'Drops/FeedTabs',
  component: FeedTabs,
  args: { tab: 'following', notificationCount: 0 },
  decorators: [(Story) => <main style={{ padding: 16 }}><Story /></main>, withConfab({ signedIn: true })],
} satisfies Meta<typeof FeedTabs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Following: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: 'Following' })).toHaveAttribute('aria-current', 'page');
  },
};

export const Trending: Story = { args: { tab: 'trending' } };

/** Saved (/drops/bookmarks), the drops one bookmarked. */
export const Saved: Story = {
  args: { tab: 'bookmarks' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: 'Saved' })).toHaveAttribute('aria-current', 'page');
  },
};

/** Unread drops of followed chats: the badge, read out as 'Following (3 new)'. */
export const WithNewDrops: Story = {
  args: { tab: 'discover', notificationCount: 3 },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('link', { name: 'Following (3 new)' })).toBeVisible();
  },
};

/** Tab moves through the four links in order. */
export const Keyboard: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Following' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Trending' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Discover' })).toHaveFocus();
    await userEvent.tab();
    await expect(canvas.getByRole('link', { name: 'Saved' })).toHaveFocus();
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'], args: { notificationCount: 12 } };

export const RightToLeft: Story = { args: { notificationCount: 2 }, decorators: [withRtl] };
