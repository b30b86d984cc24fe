import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { storyChats } from '../../storybook/storyData';
import { seedStoryDrops } from '../../storybook/storyDrops';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { ChatDropsScreen } from './ChatDropsScreen';
import { narrow } from '../../storybook/storyStates';

const launch = storyChats[0]!;

const meta = {
  title: 'Drops/ChatDropsScreen',
  component: ChatDropsScreen,
  args: { chatId: launch.id },
} satisfies Meta<typeof ChatDropsScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Alice's chat, which she follows: Following, Create Drop, and its drops. */
export const Populated: Story = { decorators: [withConfab({ signedIn: true, state: { chats: storyChats }, configure: seedStoryDrops })] };

/** A chat Alice is not in: Follow, no Create Drop; back goes to the feed. */
export const NotFollowing: Story = {
  args: { chatId: 'chatdesign00001' },
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats }, configure: seedStoryDrops })],
};

/** 'No drops yet' with the hint to ask @drops. */
export const Empty: Story = { args: { chatId: storyChats[2]!.id }, decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })] };

export const CreateDropOpen: Story = {
  args: { chatId: storyChats[2]!.id },
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'Create Drop' }));
    await expect(within(canvasElement.ownerDocument.body).getByRole('dialog', { name: 'Create a Drop' })).toBeVisible();
  },
};

export const NotFound: Story = { args: { chatId: 'chatmissing0001' }, decorators: [withConfab({ signedIn: true })] };

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats }, configure: (backend) => backend.override(`GET /api/drops/chat/${launch.id}`, () => errorResponse(500, 'Down.')) })],
};

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };

/** Populated on a phone (390×844). */
export const Narrow: Story = { ...Populated, ...narrow, tags: ['narrow'] };

/** Populated, right to left. */
export const RightToLeft: Story = { ...Populated, parameters: { ...Populated.parameters, direction: 'rtl' } };
