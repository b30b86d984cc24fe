import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { buildFakeDrop } from '@confab/client/testing/fakeDrops';
import { DropCard } from './DropCard';
import { narrow } from '../../storybook/storyStates';

const now = Date.parse('2026-01-10T12:00:00Z');
const base = buildFakeDrop({
  title: 'Launch checklist for v2',
  chat_id: 'chat00000000001',
  chat_name: 'Product launch',
  chat_avatar: 'P',
  excerpt: 'What ships on Monday, who signs off, and the rollback plan if the migration misbehaves.',
  published_at: '2026-01-10 09:00:00.000Z',
  like_count: 8,
  view_count: 96,
  reading_time: 3,
});

const meta = {
  title: 'Drops/DropCard',
  component: DropCard,
  decorators: [withConfab({ signedIn: true }), (Story) => <div style={{ maxWidth: 360 }}>{Story()}</div>],
  args: { drop: base, now },
} satisfies Meta<typeof DropCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** A featured image (loaded lazily), three tags and '+2' for the rest. */
export const WithImageAndTags: Story = {
  args: {
    drop: { ...base, featured_image: 'https://picsum.photos/seed/confab/640/360', tags: ['launch', 'checklist', 'release', 'ops', 'q1'] },
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('list', { name: 'Tags' })).toHaveTextContent('+2');
  },
};

export const LikedAndBookmarked: Story = { args: { drop: { ...base, is_liked: true, like_count: 9, is_bookmarked: true } } };

/** Older than a week: a short month and day (docs/PRODUCT.md §9). */
export const OlderThanAWeek: Story = { args: { drop: { ...base, published_at: '2025-12-20 12:00:00.000Z' } } };

/** Inside a chat's drops the chat header is left out. */
export const WithoutChat: Story = { args: { hideChat: true } };

export const LongTitle: Story = {
  args: { drop: { ...base, title: 'A very long title that keeps going to show how the card wraps words across several lines of text' } },
};

/** The like button is pressed at once (the card's copy is a story arg, so the count stays as given). */
export const PressLike: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: /^Like/ }));
  },
};

/** WithImageAndTags on a phone (390×844). */
export const Narrow: Story = { ...WithImageAndTags, ...narrow, tags: ['narrow'] };

/** WithImageAndTags, right to left. */
export const RightToLeft: Story = { ...WithImageAndTags, parameters: { ...WithImageAndTags.parameters, direction: 'rtl' } };
