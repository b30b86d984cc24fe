import { useEffect } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { useConfabClient } from '../../provider/hooks';
import { seedStoryDrops } from '../../storybook/storyDrops';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { DiscoverChats } from './DiscoverChats';

/** Loads the chats to follow as the Discover tab does, then shows them. */
function Loaded() {
  const client = useConfabClient();
  useEffect(() => {
    void client.drops.discoverChats().catch(() => {});
  }, [client]);
  return <DiscoverChats />;
}

const seeded = withConfab({ signedIn: true, configure: seedStoryDrops });

/** Discover's 'Chats to follow': each chat with its drops, followers and a Follow button. */
const meta = {
  title: 'Drops/DiscoverChats',
  component: DiscoverChats,
  render: () => <Loaded />,
  decorators: [(Story) => <main style={{ maxWidth: 480, padding: 16 }}><Story /></main>],
} satisfies Meta<typeof DiscoverChats>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Populated: Story = {
  decorators: [seeded],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('heading', { name: 'Chats to follow' })).toBeVisible();
  },
};

/** Follow, then Following: the button names the chat ('Follow Design'). */
export const FollowAChat: Story = {
  decorators: [seeded],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Follow Design' }));
    await expect(await canvas.findByRole('button', { name: 'Following Design' })).toBeVisible();
  },
};

/** Nothing to discover: the section is not shown. */
export const Empty: Story = { decorators: [withConfab({ signedIn: true })] };

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/discover/chats', () => new Response('{}', { status: 500 })) })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('Failed to discover chats');
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'], decorators: [seeded] };

export const RightToLeft: Story = { decorators: [withRtl, seeded] };
