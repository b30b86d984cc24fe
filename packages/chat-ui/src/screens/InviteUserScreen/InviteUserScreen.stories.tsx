import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { storyChatNotAdmin } from '../../storybook/storyData';
import { errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { InviteUserScreen } from './InviteUserScreen';
import { narrow } from '../../storybook/storyStates';

const answering = (backend: FakeBackend) => {
  backend.override('GET /api/search-users/bo', () => json(200, { users: [{ id: 'u2', username: 'bob', name: 'Bob Builder' }] }));
  backend.override('POST /api/invite-to-chat', (_request, body) =>
    body['username'] === 'ghost'
      ? errorResponse(404, 'User not found')
      : json(200, body['email'] !== undefined ? { success: true, status: 'invited', chat_id: 'chat1' } : { success: true, status: 'added', chat_id: 'chat1', user: { id: 'u2', username: 'bob', name: 'Bob Builder' } }),
  );
  backend.override('POST /api/create-share-link/chat1', () => json(200, { share_url: 'https://confab.example/join/3f9a0c', expires_at: '', max_uses: 50 }));
};

const meta = {
  title: 'Screens/InviteUserScreen',
  component: InviteUserScreen,
  decorators: [withConfab({ signedIn: true, configure: answering })],
  args: { chatId: 'chat1' },
} satisfies Meta<typeof InviteUserScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

export const Suggestions: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email or username'), 'bo');
    await expect(await canvas.findByRole('list', { name: 'Suggestions' })).toBeInTheDocument();
  },
};

/** An existing user is added; navigate('/chat/chat1') fires 1.5 s later (see Actions). */
export const UserAdded: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email or username'), 'bob');
    await userEvent.click(canvas.getByRole('button', { name: 'Send Invite' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent('Bob Builder has been added to the chat.');
  },
};

export const EmailInvited: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email or username'), 'New.Person@example.com');
    await userEvent.click(canvas.getByRole('button', { name: 'Send Invite' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent('Invitation sent to new.person@example.com.');
  },
};

export const UserNotFound: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email or username'), 'ghost');
    await userEvent.click(canvas.getByRole('button', { name: 'Send Invite' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('User not found. Please check the username.');
  },
};

export const ShareLinkCreated: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Create Share Link' }));
    await expect(await canvas.findByLabelText('Share link')).toHaveValue('https://confab.example/join/3f9a0c');
  },
};

/** A participant who is not an admin is told who may invite, instead of getting a form. */
export const NotAdmin: Story = {
  args: { chatId: storyChatNotAdmin.id },
  decorators: [withConfab({ signedIn: true, state: { chats: [storyChatNotAdmin] } })],
};

/** Idle on a phone (390×844). */
export const Narrow: Story = { ...Idle, ...narrow, tags: ['narrow'] };

/** Idle, right to left. */
export const RightToLeft: Story = { ...Idle, parameters: { ...Idle.parameters, direction: 'rtl' } };
