import { useEffect, type ReactNode } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { seedManyStoryDrops, seedStoryDrops } from '../../storybook/storyDrops';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { buildFakeDrop } from '@confab/client/testing/fakeDrops';
import { useConfabClient } from '../../provider/hooks';
import { DropsFeedScreen } from './DropsFeedScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Drops/DropsFeedScreen',
  component: DropsFeedScreen,
} satisfies Meta<typeof DropsFeedScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

const seeded = withConfab({ signedIn: true, configure: seedStoryDrops });

/** /drops: the drops of chats Alice follows, newest first. */
export const Following: Story = { args: { tab: 'following' }, decorators: [seeded] };

/** /drops/trending: every drop, most liked first. */
export const Trending: Story = { args: { tab: 'trending' }, decorators: [seeded] };

/** /drops/discover: drops of chats Alice does not follow, and those chats with Follow buttons. */
export const Discover: Story = { args: { tab: 'discover' }, decorators: [seeded] };

/** Alice's bookmarks, newest bookmark first (two saved drops). */
function seedSavedDrops(backend: Parameters<typeof seedStoryDrops>[0]): void {
  seedStoryDrops(backend);
  const sizing = backend.dropData.drops.find((drop) => drop.title === 'Agent market sizing');
  if (sizing !== undefined) sizing.is_bookmarked = true;
}

/** /drops/bookmarks: the drops Alice bookmarked (the Saved tab). */
export const Saved: Story = {
  args: { tab: 'bookmarks' },
  decorators: [withConfab({ signedIn: true, configure: seedSavedDrops })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('2 saved drops')).toBeVisible();
  },
};

/** Un-bookmarking on Saved takes the drop out of the list; focus stays in the feed. */
export const SavedUnbookmark: Story = {
  args: { tab: 'bookmarks' },
  decorators: [withConfab({ signedIn: true, configure: seedSavedDrops })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByRole('article', { name: 'Agent market sizing' });
    await userEvent.click(within(card).getByRole('button', { name: 'Bookmark' }));
    await expect(await canvas.findByText('1 saved drop')).toBeVisible();
    await expect(canvas.queryByRole('article', { name: 'Agent market sizing' })).toBeNull();
  },
};

/** Nothing bookmarked yet. */
export const SavedEmpty: Story = {
  args: { tab: 'bookmarks' },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('heading', { name: 'No saved drops yet.' })).toBeVisible();
  },
};

/** A second page to load: Load More Drops. */
export const MoreToLoad: Story = {
  args: { tab: 'following' },
  decorators: [withConfab({ signedIn: true, configure: (backend) => seedManyStoryDrops(backend, 24) })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: 'Load More Drops' })).toBeVisible();
  },
};

export const Empty: Story = { args: { tab: 'following' }, decorators: [withConfab({ signedIn: true })] };

export const Loading: Story = { args: { tab: 'trending' }, decorators: [withConfab({ signedIn: true, pending: true })] };

export const Failed: Story = {
  args: { tab: 'trending' },
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/drops/trending', () => errorResponse(500, 'Down.')) })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('Failed to load drops');
  },
};

/** Unread drops of followed chats badge the Following tab. */
export const NotificationBadge: Story = {
  args: { tab: 'trending' },
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) => {
        seedStoryDrops(backend);
        backend.dropData.notificationCount = 3;
      },
    }),
  ],
};

/** A drop published live in a followed chat waits behind 'New drops' (as a drop_published frame would put it). */
function LiveDrop({ children }: { children: ReactNode }) {
  const client = useConfabClient();
  useEffect(() => {
    const fresh = buildFakeDrop({ title: 'Fresh from the launch chat', chat_id: 'chat00000000001', chat_name: 'Product launch', published_at: new Date().toISOString() });
    const stop = client.drops.store.subscribe((state) => {
      if (state.feed.page === 0 || state.newDrops.length > 0) return;
      stop();
      client.drops.store.setState({ newDrops: [fresh], notificationCount: 1 });
    });
    return stop;
  }, [client]);
  return <>{children}</>;
}

export const NewDropsLive: Story = {
  args: { tab: 'following' },
  decorators: [(Story) => <LiveDrop>{Story()}</LiveDrop>, seeded],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'New drops' }));
    await expect(canvas.getByRole('heading', { level: 3, name: 'Fresh from the launch chat' })).toBeVisible();
  },
};

/** Following on a phone (390×844). */
export const Narrow: Story = { ...Following, ...narrow, tags: ['narrow'] };

/** Following, right to left. */
export const RightToLeft: Story = { ...Following, parameters: { ...Following.parameters, direction: 'rtl' } };
