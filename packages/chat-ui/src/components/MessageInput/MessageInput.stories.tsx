import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import { storyChats } from '../../storybook/storyData';
import { withConfab } from '../../storybook/withConfab';
import { MessageInput } from './MessageInput';

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
    await expect(within(canvasElement).getByRole('region', { name: 'Upload zone' })).toBeVisible();
  },
};

/** Typing @ and a word opens the agent dropdown (no agents until the agents issue). */
export const MentionDropdown: Story = {
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Message'), 'Ask @dee');
  },
};
