import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { clientMessage } from '../../testing/builders';
import { Message } from '../Message/Message';
import { ReplyQuote } from './ReplyQuote';

const now = Date.parse('2026-01-05T12:30:00Z');

const meta = {
  title: 'Components/ReplyQuote',
  component: ReplyQuote,
  args: { onJump: action('jump'), preview: { message_id: 'msg1', author_name: 'Ann', excerpt: 'Lunch at 12? We could try the new place on Main Street' } },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof ReplyQuote>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Quote: Story = {};

export const OriginalDeleted: Story = { args: { preview: { message_id: 'msg1', author_name: 'Ann', excerpt: '', deleted: true } } };

/** A reply as the list shows it: the quote above its text. */
export const InAReply: Story = {
  render: (args) => (
    <Message
      now={now}
      onJumpToMessage={args.onJump}
      message={clientMessage({ content: 'Yes, 12 works for me', reply_to: 'msg1', reply_to_preview: args.preview }, { minutesAgo: 3, now })}
    />
  ),
};

/** An original with replies: "3 replies" opens its thread; Reply is in the actions bar. */
export const OriginalWithReplies: Story = {
  render: () => (
    <Message
      now={now}
      onReply={action('reply')}
      onOpenThread={action('open thread')}
      message={clientMessage({ content: 'Lunch at 12?', author_name: 'Ann', reply_count: 3 }, { minutesAgo: 9, now })}
    />
  ),
};
