import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { storyChats } from '../../storybook/storyData';
import { longNames, narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { CreateDropModal } from './CreateDropModal';

const chat = storyChats[0]!;

const meta = {
  title: 'Drops/CreateDropModal',
  component: CreateDropModal,
  args: { chatId: chat.id, chatName: chat.name, onClose: () => {} },
} satisfies Meta<typeof CreateDropModal>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Empty, with the note by Create Drop: anyone signed in on the server can read a drop. */
export const Empty: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const dialog = within(within(canvasElement.ownerDocument.body).getByRole('dialog', { name: 'Create a Drop' }));
    await expect(dialog.getByRole('button', { name: 'Create Drop' })).toHaveAccessibleDescription(
      'Anyone signed in on this server can read a drop, even one published from a private chat.',
    );
  },
};

async function fill(canvasElement: HTMLElement) {
  const dialog = within(within(canvasElement.ownerDocument.body).getByRole('dialog', { name: 'Create a Drop' }));
  await userEvent.type(dialog.getByLabelText('Title'), 'Launch checklist for v2');
  await userEvent.type(dialog.getByLabelText('Content'), 'What ships on Monday, and who signs off. #launch');
  return dialog;
}

/** Filled in: the counters show 23/100 and 48/2000. */
export const Filled: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const dialog = await fill(canvasElement);
    await expect(dialog.getByLabelText('Title')).toHaveAccessibleDescription('23/100');
  },
};

export const TitleRequired: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const dialog = within(within(canvasElement.ownerDocument.body).getByRole('dialog'));
    await userEvent.click(dialog.getByRole('button', { name: 'Create Drop' }));
    await expect(dialog.getByRole('alert')).toHaveTextContent('Please enter a title');
  },
};

/** Publishing: 'Creating...' (the fake server holds the answer). */
export const Creating: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats }, configure: (backend) => backend.override('POST /api/drops', () => new Promise<Response>(() => {})) })],
  play: async ({ canvasElement }) => {
    const dialog = await fill(canvasElement);
    await userEvent.click(dialog.getByRole('button', { name: 'Create Drop' }));
    await expect(dialog.getByRole('button', { name: 'Creating...' })).toBeVisible();
  },
};

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats }, configure: (backend) => backend.override('POST /api/drops', () => errorResponse(404, 'Chat not found')) })],
  play: async ({ canvasElement }) => {
    const dialog = await fill(canvasElement);
    await userEvent.click(dialog.getByRole('button', { name: 'Create Drop' }));
    await expect(await dialog.findByRole('alert')).toHaveTextContent('Failed to create drop: Chat not found');
  },
};

/** Escape closes the modal (so do the backdrop and Cancel). */
export const EscapeCloses: Story = {
  args: { onClose: fn() },
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ args, canvasElement }) => {
    const dialog = within(canvasElement.ownerDocument.body).getByRole('dialog', { name: 'Create a Drop' });
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Draft');
    await userEvent.keyboard('{Escape}');
    await expect(args.onClose).toHaveBeenCalled();
  },
};

/** Tab stays inside the dialog: after its last control, focus wraps to the first. */
export const FocusStaysInside: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const dialog = within(canvasElement.ownerDocument.body).getByRole('dialog', { name: 'Create a Drop' });
    for (let step = 0; step < 8; step += 1) {
      await userEvent.tab();
      await expect(dialog.contains(canvasElement.ownerDocument.activeElement)).toBe(true);
    }
  },
};

export const LongChatNameNarrow: Story = {
  ...narrow,
  tags: ['narrow'],
  args: { chatName: longNames.chat },
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
};

export const RightToLeft: Story = { decorators: [withRtl, withConfab({ signedIn: true, state: { chats: storyChats } })] };
