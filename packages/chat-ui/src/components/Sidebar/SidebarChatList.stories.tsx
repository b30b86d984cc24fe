import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, fn, userEvent, within } from 'storybook/test';
import { chatRecord } from '../../testing/builders';
import { onSidebarRail } from '../../storybook/onSidebarRail';
import { storyChats, storyUnreadChats } from '../../storybook/storyData';
import { longNames, rtlText, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { SidebarChatList } from './SidebarChatList';

/** The sidebar's chat list: names with their description (or 'No description') and unread counts. */
const meta = {
  title: 'Components/Sidebar/SidebarChatList',
  component: SidebarChatList,
  args: { chats: storyChats, onOpenChat: action('open chat') },
} satisfies Meta<typeof SidebarChatList>;

export default meta;
type Story = StoryObj<typeof meta>;

const onRail = [onSidebarRail, withConfab({ signedIn: true })];

export const Populated: Story = { decorators: onRail };

export const Active: Story = { decorators: onRail, args: { activeChatId: storyChats[1]?.id } };

/** Unread counts, mentions in the accent colour, muted chats as a dot, '99+' above 99. */
export const Unread: Story = { decorators: onRail, args: { chats: storyUnreadChats } };

/** A long name keeps its badge in view. */
export const UnreadLongName: Story = {
  decorators: onRail,
  args: { chats: [chatRecord({ id: 'chatlong0000003', name: longNames.chat, unread_count: 42, mention_count: 3 }), ...storyUnreadChats] },
};

export const Loading: Story = { decorators: onRail, args: { chats: [], loading: true } };

export const Empty: Story = { decorators: onRail, args: { chats: [] } };

export const Error: Story = { decorators: onRail, args: { chats: [], error: 'Network error', onRetry: action('retry') } };

/** Arrow-free keyboard use: Tab reaches each chat, Enter opens it. */
export const OpenWithKeyboard: Story = {
  decorators: onRail,
  args: { onOpenChat: fn() },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.tab();
    await expect(canvas.getAllByRole('link')[0]).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onOpenChat).toHaveBeenCalledWith(storyChats[0]?.id);
  },
};

export const LongNames: Story = {
  decorators: onRail,
  args: {
    chats: [
      chatRecord({ id: 'chatlong0000001', name: longNames.chat, description: longNames.chat }),
      chatRecord({ id: 'chatlong0000002', name: longNames.word }),
      ...storyChats,
    ],
  },
};

export const RightToLeft: Story = {
  args: { chats: [chatRecord({ id: 'chatrtl00000001', name: rtlText.chat, description: rtlText.description }), chatRecord({ id: 'chatrtl00000002', name: rtlText.hebrew })] },
  decorators: [onSidebarRail, withRtl, withConfab({ signedIn: true })],
};
