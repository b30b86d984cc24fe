import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, within } from 'storybook/test';
import { clientMessage, searchResultsData } from '../../testing/builders';
import { Message } from './Message';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';

const now = Date.parse('2026-01-05T12:30:00Z');

const meta = {
  title: 'Components/Message',
  component: Message,
  args: { now, onRetry: action('retry') },
  decorators: [(Story) => <div style={{ maxWidth: 760, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof Message>;

export default meta;
type Story = StoryObj<typeof meta>;

export const PlainText: Story = { args: { message: clientMessage({ content: 'Shall we ship on Friday?' }, { minutesAgo: 5, now }) } };

export const Agent: Story = {
  args: {
    message: clientMessage(
      { content: 'Here is what I found.', author_id: 'agent0000000001', author_name: 'Deep Research', author_username: 'deep', is_agent: true },
      { minutesAgo: 90, now },
    ),
  },
};

const streamingReply = clientMessage(
  {
    content: 'Looking at three sources so far: the **2025 survey**, the',
    message_id: 'stream:s1',
    stream_id: 's1',
    status: 'streaming',
    seq: null,
    author_id: 'agent0000000001',
    author_name: 'Deep Research',
    author_username: 'deep',
    is_agent: true,
  },
  { minutesAgo: 0, now },
);

/** An agent's streamed reply while it grows: 'typing...' until the final text replaces it. */
/** An agent's markdown: a heading, a list, a quote, inline code, a fenced block and a wide table. */
const richReply = [
  '### Launch checklist',
  '',
  '1. Freeze the `main` branch',
  '2. Tag **v2.0** and publish',
  '',
  '> Ship on Friday only if the smoke tests pass.',
  '',
  '```ts',
  "const ready = checks.every((check) => check.passed);",
  '```',
  '',
  '| Region | Owner | Status | Notes |',
  '|---|---|---|---|',
  `| eu-west | Alice | done | ${'a long note that makes the table wider than the message '.repeat(2)}|`,
  '| us-east | Bob | pending | waiting on DNS |',
].join('\n');

export const RichText: Story = {
  args: {
    message: clientMessage(
      { content: richReply, author_id: 'agent0000000001', author_name: 'Deep Research', author_username: 'deep', is_agent: true },
      { minutesAgo: 2, now },
    ),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const table = await canvas.findByRole('table');
    await expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Region', 'Owner', 'Status', 'Notes']);
    // A wide table stays inside the message (its cells wrap; past that it scrolls on its own).
    const body = canvasElement.querySelector<HTMLElement>('.cf-message__body');
    await expect(table.getBoundingClientRect().width).toBeLessThanOrEqual(body!.getBoundingClientRect().width + 1);
    await expect(getComputedStyle(table.querySelector('th')!).borderTopStyle).toBe('solid');
    await expect(getComputedStyle(canvas.getByText('main')).fontFamily).toMatch(/mono/i);
  },
};

export const Streaming: Story = { args: { message: streamingReply } };

/** A streamed reply that has only just started: no text yet. */
export const StreamingStarted: Story = { args: { message: { ...streamingReply, content: '' } } };

export const Pending: Story = { args: { message: clientMessage({ content: 'On my way', status: 'pending', seq: null }, { minutesAgo: 0, now }) } };

export const Failed: Story = {
  args: { message: clientMessage({ content: 'This one did not go out', status: 'failed', seq: null, client_id: 'local-1' }, { minutesAgo: 0, now }) },
};

export const SearchResults: Story = {
  args: {
    message: clientMessage(
      { content: JSON.stringify(searchResultsData(20)), author_name: 'Browse', author_username: 'browse', is_agent: true, author_id: 'agent0000000002' },
      { minutesAgo: 3, now },
    ),
  },
};

export const Highlighted: Story = { args: { highlight: 'friday', message: clientMessage({ content: 'Friday works. Friday it is.' }, { now }) } };

export const Chinese: Story = { args: { locale: 'zh', message: clientMessage({ content: '你好' }, { minutesAgo: 120, now }) } };

/** A long author name and an unbroken word: both wrap inside the bubble. */
export const LongNames: Story = {
  args: { message: clientMessage({ content: `${longNames.word} — and a link https://example.com/${longNames.word}`, author_name: longNames.person }, { minutesAgo: 3, now }) },
};

export const RightToLeft: Story = {
  args: { message: clientMessage({ content: rtlText.message, author_name: rtlText.person }, { minutesAgo: 3, now }) },
  decorators: [withRtl],
};

/** Mixed directions in one message (Hebrew with an English name and a number). */
export const MixedDirection: Story = {
  args: { message: clientMessage({ content: `${rtlText.hebrew} — Alice, v2.0` }, { minutesAgo: 3, now }) },
  decorators: [withRtl],
};

export const Narrow: Story = { ...narrow, tags: ['narrow'], args: { message: clientMessage({ content: `${longNames.word} ${rtlText.message}`, author_name: longNames.person }, { minutesAgo: 3, now }) } };
