import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { withConfab } from '../../storybook/withConfab';
import { storyChatNotAdmin, storyChats } from '../../storybook/storyData';
import { storyUserRecord } from '../../storybook/storyClient';
import { userRecordOf } from '../../testing/builders';
import { ChatOptionsScreen } from './ChatOptionsScreen';
import { narrow } from '../../storybook/storyStates';

const chatId = storyChats[0]?.id ?? '';

/** The first chat with a developer agent named much like Alice among its participants. */
const storyHelper = userRecordOf('storyagent00001', 'alice_helper', 'Alice Helper', 'developer-agent');
const storyChatWithAgents = {
  ...(storyChats[0] as (typeof storyChats)[number]),
  participants: [...(storyChats[0]?.participants ?? []), storyHelper.id],
  expand: { ...storyChats[0]?.expand, participants: [...(storyChats[0]?.expand?.participants ?? []), storyHelper] },
};

const meta = {
  title: 'Screens/ChatOptionsScreen',
  component: ChatOptionsScreen,
  args: { chatId },
} satisfies Meta<typeof ChatOptionsScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Admin: Story = { decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })] };

/** A participant who is not an admin: every control is disabled. */
export const NotAdmin: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: [storyChatNotAdmin, ...storyChats.slice(1)] } })],
};

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };

/** Every save fails: try a toggle or Save Changes to see the error texts of docs/PRODUCT.md §8. */
export const SavesFail: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: storyChats },
      configure: (backend) => {
        backend.override(`PATCH /api/collections/chats/records/${chatId}`, () => errorResponse(500, 'Something went wrong.'));
        backend.override(`DELETE /api/collections/chats/records/${chatId}`, () => errorResponse(500, 'Something went wrong.'));
      },
    }),
  ],
};

/** Agents may ask @data and @deep about the chat's files only once an admin allows it: off, then on. */
export const AgentsMayReadFiles: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const files = await canvas.findByRole('switch', { name: 'Agents may read files' });
    await expect(files).not.toBeChecked();
    await userEvent.click(files);
    await waitFor(() => expect(files).toBeChecked());
  },
};

/** Leave chat is refused for the last admin: press Leave chat, then Yes, leave chat. */
export const LeaveRefused: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: storyChats },
      configure: (backend) =>
        backend.override(`POST /api/chats/${chatId}/leave`, () =>
          errorResponse(400, 'You are the last admin of this chat. Make another participant an admin before leaving.'),
        ),
    }),
  ],
};

/** Alice muted this chat for herself: the switch is on (any participant has it, admin or not). */
export const Muted: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: [storyChatNotAdmin, ...storyChats.slice(1)] },
      configure: (backend) => {
        const chat = backend.chats.find((candidate) => candidate.id === chatId);
        if (chat) chat.muted_by = [storyUserRecord.id];
      },
    }),
  ],
  play: async ({ canvasElement }) => {
    const mute = await within(canvasElement).findByRole('switch', { name: 'Mute this chat' });
    await waitFor(() => expect(mute).toBeChecked());
    await expect(mute).toBeEnabled();
  },
};

/** Changing mute fails: press the switch to see 'Failed to change mute.' and the switch go back. */
export const MuteFails: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: storyChats },
      configure: (backend) => backend.override(`POST /api/chats/${chatId}/mute`, () => errorResponse(500, 'Something went wrong.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const mute = await canvas.findByRole('switch', { name: 'Mute this chat' });
    await userEvent.click(mute);
    await expect(await canvas.findByText('Failed to change mute.')).toBeVisible();
    await expect(mute).not.toBeChecked();
  },
};

export const NotFound: Story = { args: { chatId: 'chat_missing_01' }, decorators: [withConfab({ signedIn: true })] };

/** Delete Chat asks the question of docs/PRODUCT.md §8 first; answering Cancel keeps the chat. */
export const DeleteAsksFirst: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const confirm = fn(() => false);
    const original = window.confirm;
    window.confirm = confirm;
    try {
      await userEvent.click(await canvas.findByRole('button', { name: 'Delete Chat' }));
      await expect(confirm).toHaveBeenCalledWith(
        'Are you sure? You will lose all of the files associated with this chat. This action cannot be undone.',
      );
      await expect(canvas.getByRole('button', { name: 'Delete Chat' })).toBeEnabled();
    } finally {
      window.confirm = original;
    }
  },
};

/** Leave chat from the keyboard: the inline confirmation takes focus on Cancel, Escape closes it. */
export const LeaveWithKeyboard: Story = {
  decorators: [withConfab({ signedIn: true, state: { chats: storyChats } })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const leave = await canvas.findByRole('button', { name: 'Leave chat' });
    leave.focus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect(canvas.queryByRole('button', { name: 'Cancel' })).toBeNull();
  },
};

/** Agents among the participants wear the Agent badge, so a name alone never passes for a person's. */
export const AgentParticipants: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      state: { chats: [storyChatWithAgents, ...storyChats.slice(1)] },
      configure: (backend) => backend.users.push({ ...storyHelper, email: '', password: 'not-used' }),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const agent = await canvas.findByRole('listitem', { name: 'Alice Helper (Agent)' });
    await expect(within(agent).getByText('Agent')).toBeVisible();
    await expect(within(canvas.getByRole('listitem', { name: 'Alice Liddell' })).queryByText('Agent')).toBeNull();
  },
};

/** Admin on a phone (390×844). */
export const Narrow: Story = { ...Admin, ...narrow, tags: ['narrow'] };

/** Admin, right to left. */
export const RightToLeft: Story = { ...Admin, parameters: { ...Admin.parameters, direction: 'rtl' } };
