import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { clientMessage } from '../../testing/builders';
import { narrow } from '../../storybook/storyStates';
import { ReplyBanner } from '../ReplyBanner/ReplyBanner';
import { ThreadPanel } from './ThreadPanel';

const now = Date.parse('2026-01-05T12:30:00Z');
const original = clientMessage({ content: 'Lunch at 12?', author_name: 'Ann', reply_count: 2 }, { minutesAgo: 20, now });
const preview = { message_id: original.message_id, author_name: 'Ann', excerpt: 'Lunch at 12?' };
const replies = [
  clientMessage({ content: 'Yes please', author_name: 'Bob', reply_to: original.message_id, reply_to_preview: preview }, { minutesAgo: 15, now }),
  clientMessage({ content: 'Count me in', author_name: 'Carol', reply_to: original.message_id, reply_to_preview: preview }, { minutesAgo: 5, now }),
];

const meta = {
  title: 'Components/ThreadPanel',
  component: ThreadPanel,
  args: { now, original, replies, onSend: action('send'), onClose: action('close'), onRetry: action('retry') },
} satisfies Meta<typeof ThreadPanel>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Populated: Story = {};

export const Empty: Story = { args: { original: { ...original, reply_count: 0 }, replies: [] } };

export const Loading: Story = { args: { original: null, replies: [], loading: true } };

export const Failed: Story = { args: { original: null, replies: [], error: 'Failed to load the replies.' } };

export const SendingAReply: Story = {
  args: { replies: [...replies, clientMessage({ content: 'On my way', author_name: 'Ann', status: 'pending', seq: null, reply_to: original.message_id }, { minutesAgo: 0, now })] },
};

/** Below 640px the panel is a bottom sheet. */
export const Phone: Story = { ...narrow, tags: ['narrow'] };

/** The banner above the message input while a reply is written. */
export const ReplyingBanner: StoryObj<typeof ReplyBanner> = {
  render: () => <ReplyBanner authorName="ann" onCancel={action('cancel')} />,
};
