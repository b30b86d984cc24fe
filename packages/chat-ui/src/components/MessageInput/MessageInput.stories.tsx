import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, fn, userEvent, within } from 'storybook/test';
import { storyChats } from '../../storybook/storyData';
import { withConfab } from '../../storybook/withConfab';
import { MessageInput } from './MessageInput';
import { narrow, rtlText, withRtl } from '../../storybook/storyStates';

const meta = {
  title: 'Components/MessageInput',
  component: MessageInput,
  args: { chatId: storyChats[0]?.id ?? '', onSend: action('send'), onFileUploaded: action('file uploaded') },
  decorators: [
    (Story) => <div style={{ maxWidth: 760, padding: 16, marginTop: 200 }}><Story /></div>,
    withConfab({ signedIn: true, state: { chats: storyChats } }),
  ],
} satisfies Meta<typeof MessageInput>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

export const Disabled: Story = { args: { disabled: true } };

/** The upload button toggles the upload zone (see Components/UploadZone for its states). */
export const UploadZoneOpen: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Upload files' }));
    // The zone's code loads on demand, so it shows a moment after the click.
    await expect(await within(canvasElement).findByRole('region', { name: 'Upload zone' })).toBeVisible();
  },
};

/** Typing @ and a word searches the agents the chat permits: ↑ ↓ move, Enter or Tab picks, Escape closes. */
export const MentionDropdown: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), 'Ask @d');
    await expect(await canvas.findByRole('listbox', { name: 'Agents' })).toBeVisible();
  },
};

/** A bare @ lists every agent the chat permits, before any letter. */
export const MentionBareAt: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), 'Ask @');
    await expect(await canvas.findByRole('listbox', { name: 'Agents' })).toBeVisible();
  },
};

/** Picking an agent inserts `@username ` at the mention. */
export const MentionPicked: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const field = canvas.getByLabelText('Message');
    await userEvent.type(field, 'Ask @dee');
    await canvas.findByRole('option', { name: /@deep/ });
    await userEvent.keyboard('{Enter}');
    await expect(field).toHaveValue('Ask @deep ');
  },
};

/** No agent matches: 'No agents found for …' with a hint. */
export const MentionNoAgents: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), 'Ask @zzz');
    await expect(await canvas.findByText('No agents found for "zzz"')).toBeVisible();
  },
};

/** Enter sends the trimmed text and clears the field; Shift+Enter adds a line instead. */
export const SendWithEnter: Story = {
  args: { onSend: fn() },
  play: async ({ args, canvasElement }) => {
    const field = within(canvasElement).getByLabelText('Message');
    await userEvent.type(field, '  Hello team{Shift>}{Enter}{/Shift}second line');
    await expect(args.onSend).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSend).toHaveBeenCalledWith('Hello team\nsecond line');
    await expect(field).toHaveValue('');
  },
};

/** Blank text is not sent: Send stays disabled and Enter does nothing. */
export const BlankNotSent: Story = {
  args: { onSend: fn() },
  play: async ({ args, canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Message'), '   {Enter}');
    await expect(args.onSend).not.toHaveBeenCalled();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};

/** Phone: the empty input stays one line, its placeholder unclipped. */
export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = {
  decorators: [withRtl],
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Message'), rtlText.message);
  },
};
