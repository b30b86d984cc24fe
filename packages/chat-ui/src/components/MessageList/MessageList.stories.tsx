import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { clientMessage, messageHistory, searchResultsData } from '../../testing/builders';
import type { ClientMessage } from '../../internal/chatClient';
import { MessageList, type MessageListProps } from './MessageList';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { storyChats } from '../../storybook/storyData';
import { storyUserRecord } from '../../storybook/storyClient';

const now = Date.parse('2026-01-05T12:30:00Z');

const meta = {
  title: 'Components/MessageList',
  component: MessageList,
  args: { messages: [], now, userName: 'Alice', onRetry: action('retry') },
  decorators: [(Story) => <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}><Story /></div>, withConfab({ signedIn: true })],
} satisfies Meta<typeof MessageList>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { loading: true } };

/** A chat without messages: the welcome with @email, @deep, @browse, @data. */
export const Empty: Story = {};

export const Populated: Story = { args: { messages: messageHistory(40, 'chat00000000001', now) } };

/** 10,000 messages: only the rows in view are in the DOM. */
export const TenThousandMessages: Story = { args: { messages: messageHistory(10_000, 'chat00000000001', now) } };

/** Three messages after the read position: the 'New messages' divider above the first, in view at the bottom. */
export const NewMessages: Story = {
  args: { messages: messageHistory(40, 'chat00000000001', now), lastReadSeq: 37, onMessagesSeen: action('messages seen') },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('separator', { name: 'New messages' })).toBeVisible();
  },
};

/**
 * More unread than fit: the list opens at the divider with 'Jump to latest' below; from the
 * bottom, 'Jump to first unread' takes the view back to the divider.
 */
export const OpensAtNewMessages: Story = {
  args: { messages: messageHistory(60, 'chat00000000001', now), lastReadSeq: 20, onMessagesSeen: action('messages seen') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // A jump across the virtualised list measures rows as it lands: on a busy machine that takes
    // more than the default second, so these waits allow a few.
    const settled = { timeout: 5000 };
    await expect(await canvas.findByRole('separator', { name: 'New messages' }, settled)).toBeVisible();
    await userEvent.click(await canvas.findByRole('button', { name: 'Jump to latest' }));
    await expect(await canvas.findByText('Message 60', {}, settled)).toBeVisible();
    await userEvent.click(await canvas.findByRole('button', { name: 'Jump to first unread' }, settled));
    await waitFor(() => expect(canvas.getByRole('separator', { name: 'New messages' })).toBeVisible(), settled);
    await waitFor(() => expect(canvas.queryByRole('button', { name: 'Jump to first unread' })).not.toBeInTheDocument(), settled);
  },
};

export const PendingAndFailed: Story = {
  args: {
    messages: [
      ...messageHistory(6, 'chat00000000001', now),
      clientMessage({ content: 'On my way', status: 'pending', seq: null, client_id: 'local-1', author_name: 'Alice' }, { minutesAgo: 0, now }),
      clientMessage({ content: 'Did this go out?', status: 'failed', seq: null, client_id: 'local-2', author_name: 'Alice' }, { minutesAgo: 0, now }),
    ],
  },
};

/** Agents at work: a streamed reply growing at the end, and a notice shown to the sender only after their message. */
export const WithAgentActivity: Story = {
  args: {
    messages: [
      ...messageHistory(5, 'chat00000000001', now),
      clientMessage({ content: '@echo_bot are you there?', message_id: 'asked-echo', author_id: 'storyuser000001', author_name: 'Alice', author_username: 'alice' }, { minutesAgo: 0, now }),
      clientMessage(
        { content: 'Here is a first draft of the summary', message_id: 'stream:s1', stream_id: 's1', status: 'streaming', seq: null, author_id: 'agent0000000001', author_name: 'Deep Research', author_username: 'deep', is_agent: true },
        { minutesAgo: 0, now },
      ),
    ],
    notices: [
      {
        id: 'asked-echo:echo_bot:offline',
        chat_id: 'chat00000000001',
        message_id: 'asked-echo',
        agent_username: 'echo_bot',
        reason: 'offline',
        text: '@echo_bot is offline. Your message will be delivered if it reconnects within 10 minutes.',
        received_at: new Date(now).toISOString(),
      },
    ],
  },
};

export const WithSearchResults: Story = {
  args: {
    messages: [
      ...messageHistory(3, 'chat00000000001', now),
      clientMessage({ content: JSON.stringify(searchResultsData(20)), author_name: 'Browse', is_agent: true, author_id: 'agent0000000002' }, { now }),
    ],
  },
};

export const Filtered: Story = { args: { messages: messageHistory(40, 'chat00000000001', now), filter: 'second line' } };

export const NoMatches: Story = { args: { messages: messageHistory(10, 'chat00000000001', now), filter: 'zebra' } };

/** Older pages arrive as you scroll up (simulated: 200 at a time, 0.6 s each, down to message 1). */
function Paging(props: MessageListProps) {
  const all = messageHistory(2_000, 'chat00000000001', now);
  const [shown, setShown] = useState<ClientMessage[]>(all.slice(-200));
  const [loading, setLoading] = useState(false);
  const loadOlder = () => {
    setLoading(true);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        setShown((current) => all.slice(Math.max(0, all.length - current.length - 200)));
        setLoading(false);
        resolve();
      }, 600),
    );
  };
  return <MessageList {...props} messages={shown} loading={loading} hasOlder={shown.length < all.length} onLoadOlder={loadOlder} />;
}

export const LoadsOlderOnScroll: Story = { render: (args) => <Paging {...args} /> };

/** A page of older messages loading: the note floats over the top of the list and moves no row. */
export const LoadingOlder: Story = {
  args: { messages: messageHistory(40, 'chat00000000001', now), loading: true, hasOlder: true },
  play: async ({ canvasElement }) => {
    const note = await within(canvasElement).findByText('Loading older messages...');
    await expect(note).toBeVisible();
    const list = canvasElement.querySelector<HTMLElement>('.cf-message-list');
    const rows = canvasElement.querySelector<HTMLElement>('.cf-message-list__canvas');
    if (list === null || rows === null) throw new Error('the message list did not render');
    // The rows start where the list's padding ends, as they do with no note.
    const rowsStart = rows.getBoundingClientRect().top - list.getBoundingClientRect().top - list.clientTop + list.scrollTop;
    await expect(rowsStart).toBeCloseTo(parseFloat(getComputedStyle(list).paddingTop), 0);
  },
};

export const RightToLeft: Story = {
  args: {
    userName: rtlText.person,
    messages: [
      clientMessage({ content: rtlText.message, author_name: rtlText.person }, { minutesAgo: 4, now }),
      clientMessage({ content: rtlText.hebrew, author_name: 'Bob Builder' }, { minutesAgo: 2, now }),
    ],
  },
  decorators: [withRtl],
};

export const LongNames: Story = {
  args: { messages: [clientMessage({ content: longNames.word, author_name: longNames.person }, { minutesAgo: 2, now }), ...messageHistory(3, 'chat00000000001', now)] },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'], args: { messages: messageHistory(12, 'chat00000000001', now) } };

const alice = { author_id: storyUserRecord.id, author_name: storyUserRecord.name, author_username: storyUserRecord.username };

/**
 * Alice, an admin of the chat, with the pointer or the focus on messages: Edit and Delete on her
 * own, Delete on Bob's and the agent's. Her second message was edited; the one deleted between
 * is not shown.
 */
export const EditsAndDeletions: Story = {
  args: {
    messages: [
      ...messageHistory(3, 'chat00000000001', now),
      clientMessage({ ...alice, content: 'Release notes are in the doc.', seq: 4, message_id: 'm4' }, { minutesAgo: 3, now }),
      clientMessage({ content: '', seq: 5, message_id: 'm5', deleted_at: new Date(now - 60_000).toISOString() }, { minutesAgo: 2, now }),
      clientMessage({ ...alice, content: 'Shipping on Monday, not Friday.', seq: 6, message_id: 'm6', edited_at: new Date(now - 30_000).toISOString() }, { minutesAgo: 1, now }),
    ],
  },
  decorators: [withConfab({ signedIn: true, state: { currentChat: storyChats[0] } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const articles = await canvas.findAllByRole('article', { name: 'Alice Liddell' });
    await expect(articles).toHaveLength(2);
    await expect(within(articles[1]!).getByText('(edited)')).toBeVisible();
    within(articles[1]!).getByRole('button', { name: 'Edit' }).focus();
    const bobs = canvas.getByRole('article', { name: 'Bob Builder' });
    await expect(within(bobs).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await expect(within(bobs).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    await expect(canvas.queryByRole('article', { name: 'Carol' })).toBeInTheDocument();
  },
};

const ann = { author_id: 'user00000000003', author_name: 'Carol', author_username: 'carol', is_agent: false };
const bob = { author_id: 'user00000000002', author_name: 'Bob Builder', author_username: 'bob', is_agent: false };
const deep = { author_id: 'agent0000000001', author_name: 'Deep Research', author_username: 'deep', is_agent: true };

/** A conversation over four days (the last one today): quick runs by one author, gaps, an agent. */
function conversationAcrossDays(): ClientMessage[] {
  const today = new Date(now);
  const at = (daysAgo: number, hours: number, minutes: number) =>
    new Date(today.getFullYear(), today.getMonth(), today.getDate() - daysAgo, hours, minutes).toISOString();
  const lines: Array<[typeof bob, number, number, number, string]> = [
    [ann, 40, 9, 0, 'Happy new year, all! Kick-off notes are in the shared folder.'],
    [ann, 40, 9, 2, 'Please add your goals for the quarter by Friday.'],
    [bob, 3, 16, 10, 'Goals added. Mine are mostly about the mobile app.'],
    [bob, 3, 16, 12, 'Also: can someone review the onboarding copy?'],
    [bob, 3, 16, 30, 'Never mind, found a reviewer.'],
    [ann, 1, 18, 45, 'Reminder: demo tomorrow at 10.'],
    [bob, 0, 9, 58, 'Morning! Setting up the room.'],
    [bob, 0, 9, 59, 'Projector works.'],
    [bob, 0, 10, 2, 'We are live in the main room.'],
    [deep, 0, 10, 3, 'Here is the summary of last week’s feedback: 12 requests, 3 bugs.'],
    [deep, 0, 10, 4, 'The most asked-for feature is offline mode.'],
    [ann, 0, 10, 20, 'Thanks everyone, great demo.'],
  ];
  return lines.map(([author, daysAgo, hours, minutes, content], index) =>
    clientMessage({ ...author, content, seq: index + 1, message_id: `grouped-m${index + 1}`, created_at: at(daysAgo, hours, minutes) }),
  );
}

/**
 * Grouped messages across days: a divider opens each day ('Today', 'Yesterday', then dates, the
 * year only when not this year); one author's messages within 5 minutes share one name and avatar.
 */
export const GroupedAcrossDays: Story = {
  args: { messages: conversationAcrossDays() },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('separator', { name: 'Today' })).toBeVisible();
    await expect(canvas.getByRole('separator', { name: 'Yesterday' })).toBeInTheDocument();
    // Bob's three messages this morning: one name shown, three articles that say who wrote them.
    await expect(canvas.getAllByRole('article', { name: 'Bob Builder' }).length).toBeGreaterThanOrEqual(3);
  },
};

/** The same conversation in the dark theme. */
export const GroupedAcrossDaysDark: Story = {
  args: { messages: conversationAcrossDays() },
  decorators: [withConfab({ signedIn: true, theme: 'dark' })],
};

/** The same conversation in Chinese: '今天', '昨天' and Chinese dates. */
export const GroupedAcrossDaysChinese: Story = { args: { messages: conversationAcrossDays(), locale: 'zh' } };

/** The 'New messages' divider splits Bob's quick run: the first unread message gets his name again. */
export const GroupedWithNewMessages: Story = { args: { messages: conversationAcrossDays(), lastReadSeq: 7 } };

/** On a phone (390 px): grouped messages and day dividers without sideways scrolling. */
export const GroupedNarrow: Story = { ...narrow, tags: ['narrow'], args: { messages: conversationAcrossDays() } };
