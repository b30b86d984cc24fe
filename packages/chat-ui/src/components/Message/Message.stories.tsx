import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { clientMessage, searchResultsData } from '../../testing/builders';
import { Message } from './Message';
import { longNames, narrow, rtlText, withRtl } from '../../storybook/storyStates';
import { storyUserRecord } from '../../storybook/storyClient';
import { withConfab } from '../../storybook/withConfab';

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

/** A streamed reply whose AI provider failed mid-way: what arrived, marked cut off. */
export const CutOff: Story = { args: { message: { ...streamingReply, message_id: 'm-cut', seq: 7, status: 'sent', cut_off: true } } };

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

/** Edited after it was sent: '(edited)' after the time, the exact time of the edit on hover. */
export const Edited: Story = {
  args: { message: clientMessage({ content: 'Shall we ship on Monday instead?', edited_at: new Date(now - 2 * 60_000).toISOString() }, { minutesAgo: 5, now }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTitle(/^Edited \w+day, January \d+, 2026 at /)).toHaveTextContent('(edited)');
  },
};

/**
 * Presses Edit or Delete as a person does: the bar takes clicks only once shown, which the
 * pointer on the message does in a browser (and focus does here).
 */
async function pressAction(canvasElement: HTMLElement, name: 'Edit' | 'Delete') {
  const button = within(canvasElement).getByRole('button', { name });
  button.focus();
  await userEvent.click(button);
}

/** Alice's own message as she sees it: Edit and Delete over its corner (shown here by focusing Edit, as Tab does). */
const ownMessage = clientMessage(
  { content: 'I will write the release notes tonight.', author_id: storyUserRecord.id, author_name: storyUserRecord.name, author_username: storyUserRecord.username },
  { minutesAgo: 4, now },
);

export const ActionsOnOwnMessage: Story = {
  args: { message: ownMessage, canEdit: true, canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const edit = within(canvasElement).getByRole('button', { name: 'Edit' });
    edit.focus();
    await waitFor(() => expect(getComputedStyle(canvasElement.querySelector('.cf-message__actions')!).opacity).toBe('1'));
  },
};

/** An admin of the chat on Bob's message: Delete only (only the author edits). */
export const ActionsForAdmin: Story = {
  args: { message: clientMessage({ content: 'Buy my crypto course!!!' }, { minutesAgo: 4, now }), canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    canvas.getByRole('button', { name: 'Delete' }).focus();
    await expect(canvas.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  },
};

/** Edit pressed: the text in place of the body, with Save and Cancel. */
export const Editing: Story = {
  args: { message: ownMessage, canEdit: true, canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressAction(canvasElement, 'Edit');
    await waitFor(() => expect(canvas.getByRole('textbox', { name: 'Edit message' })).toHaveFocus());
  },
};

/** The editor refusing an empty text, with the client's message. */
export const EditingEmpty: Story = {
  args: { message: ownMessage, canEdit: true, canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressAction(canvasElement, 'Edit');
    const field = await canvas.findByRole('textbox', { name: 'Edit message' });
    await userEvent.clear(field);
    await userEvent.click(canvas.getByRole('button', { name: 'Save' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Please enter a message');
  },
};

/** Delete pressed on one's own message: the question, Cancel focused. */
export const ConfirmingDelete: Story = {
  args: { message: ownMessage, canEdit: true, canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressAction(canvasElement, 'Delete');
    const question = await canvas.findByRole('group', { name: 'Delete this message? This cannot be undone.' });
    await waitFor(() => expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus());
  },
};

/** An admin deleting Bob's message: the question says whose it is. */
export const ConfirmingDeleteAsAdmin: Story = {
  args: { message: clientMessage({ content: 'Buy my crypto course!!!' }, { minutesAgo: 4, now }), canDelete: true },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressAction(canvasElement, 'Delete');
    const question = await canvas.findByRole('group', { name: 'Delete this message? This cannot be undone.' });
    await expect(question).toHaveAccessibleDescription('It is Bob Builder’s message: you can delete it as an admin of this chat.');
  },
};

/** Reactions under the message; signed in, the chips toggle one's own and "Add reaction" opens the picker. */
export const WithReactions: Story = {
  args: {
    message: {
      ...clientMessage({ content: 'Ship it on Friday?' }, { minutesAgo: 5, now }),
      reactions: [
        { emoji: '👍', count: 2, users: [{ id: 'user_ann', username: 'ann', name: 'Ann' }, { id: 'user_bob', username: 'bob', name: 'Bob' }] },
        { emoji: '🎉', count: 1, users: [{ id: 'user_bob', username: 'bob', name: 'Bob' }] },
      ],
      reactions_version: 3,
    },
    canReact: true,
  },
  decorators: [withConfab({ signedIn: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: '👍 2: ann, bob' })).toBeInTheDocument();
    // From the keyboard: the focus in the actions bar shows it (a synthetic hover sets no :hover).
    canvas.getByRole('button', { name: 'Add reaction' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(await canvas.findByRole('dialog', { name: 'Add reaction' })).toBeInTheDocument();
  },
};

/**
 * Under the same author's message above (MessageList groups them): no avatar or name; hovering or
 * focusing shows the time of day in the avatar's place, with the full date and time as its title.
 */
export const Grouped: Story = {
  args: { grouped: true, message: clientMessage({ content: 'And one more thing: the demo is at 3.' }, { minutesAgo: 4, now }) },
  play: async ({ canvasElement }) => {
    const article = within(canvasElement).getByRole('article', { name: 'Bob Builder' });
    await expect(canvasElement.querySelector('.cf-avatar')).toBeNull();
    // The author is read, not shown; the time of day carries the full date and time.
    await expect(within(article).getByText('Bob Builder')).toHaveClass('cf-visually-hidden');
    await expect(within(article).getByTitle(/^\w+day, January \d+, 2026 at /)).toBeInTheDocument();
  },
};

/** Grouped and edited: '(edited)' at the end of the first line. */
export const GroupedEdited: Story = {
  args: {
    grouped: true,
    message: clientMessage({ content: 'Make that 4 o’clock.', edited_at: new Date(now - 60_000).toISOString() }, { minutesAgo: 3, now }),
  },
};
