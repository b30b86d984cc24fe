import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { longNames, withRtl, withWidth } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { FollowButton } from './FollowButton';

/** 'Follow' a chat, or 'Following' once followed (a second click unfollows). */
const meta = {
  title: 'Drops/FollowButton',
  component: FollowButton,
  args: { chatId: 'chatdesign00001', chatName: 'Design' },
  decorators: [(Story) => <div style={{ padding: 16 }}><Story /></div>, withConfab({ signedIn: true })],
} satisfies Meta<typeof FollowButton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NotFollowing: Story = {};

export const Following: Story = { args: { initialFollowing: true } };

/** From the keyboard: Enter follows, and the name says so. */
export const FollowWithKeyboard: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Follow Design' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByRole('button', { name: 'Following Design' })).toBeVisible();
  },
};

/** Busy while the request is held (aria-busy). */
export const Busy: Story = {
  decorators: [withConfab({ signedIn: true, pending: true })],
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Follow Design' });
    await userEvent.click(button);
    await expect(button).toHaveAttribute('aria-busy', 'true');
  },
};

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('POST /api/follow/chatdesign00001', () => new Response('{}', { status: 500 })) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Follow Design' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to follow chat');
  },
};

export const LongChatName: Story = { args: { chatName: longNames.chat }, decorators: [withWidth(200)] };

export const RightToLeft: Story = { decorators: [withRtl] };
