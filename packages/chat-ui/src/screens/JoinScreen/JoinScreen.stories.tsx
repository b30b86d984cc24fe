import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse, json, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { JoinScreen } from './JoinScreen';
import { narrow } from '../../storybook/storyStates';

const invitation = (linkType: 'shareable' | 'email', userExists = false) => ({
  id: 'inv1',
  chat_id: 'chat1',
  chat: { id: 'chat1', name: 'Launch Plans' },
  email: linkType === 'email' ? 'new.person@example.com' : '',
  link_type: linkType,
  user_exists: userExists,
  expires_at: '2026-12-01 00:00:00.000Z',
});

const answering = (linkType: 'shareable' | 'email', userExists = false) => (backend: FakeBackend) => {
  backend.override('GET /api/invitation/story-token', () => json(200, invitation(linkType, userExists)));
  backend.override('GET /api/accept-invitation/story-token', () => new Response(null, { status: 302, headers: { Location: '/chat/chat1' } }));
  backend.override('POST /api/accept-invitation/story-token', (_request, body) =>
    json(200, body['display_name'] !== undefined && body['username'] === undefined ? { success: true, chat_id: 'chat1' } : { success: true, username: body['username'], chat_id: 'chat1' }),
  );
};

const meta = {
  title: 'Screens/JoinScreen',
  component: JoinScreen,
  args: { token: 'story-token' },
} satisfies Meta<typeof JoinScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** No token in the link: 'Unable to Join Chat' with 'Invalid invitation link'. */
export const NoToken: Story = { args: { token: null }, decorators: [withConfab()] };

export const Processing: Story = { decorators: [withConfab({ pending: true })] };

export const ExpiredLink: Story = {
  decorators: [withConfab({ configure: (backend) => backend.override('GET /api/invitation/story-token', () => errorResponse(404, 'Invalid or expired invitation')) })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('Invalid or expired invitation link');
  },
};

/** Signed in, share link: joined at once, to the chat after 1 s. */
export const SignedInShareLink: Story = {
  decorators: [withConfab({ signedIn: true, configure: answering('shareable') })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
  },
};

/** Signed out, share link: the name-only form. */
export const NameForm: Story = { decorators: [withConfab({ configure: answering('shareable') })] };

export const NameRequired: Story = {
  decorators: [withConfab({ configure: answering('shareable') })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Join Chat' }));
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter your name');
  },
};

/** Signed out, e-mail invitation for a new person: the complete-signup form. */
export const CompleteSignupForm: Story = { decorators: [withConfab({ configure: answering('email') })] };

export const SignupSuccess: Story = {
  decorators: [withConfab({ configure: answering('email') })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Username'), 'newbie');
    await userEvent.type(canvas.getByLabelText('Password'), 'secret1');
    await userEvent.type(canvas.getByLabelText('Confirm Password'), 'secret1');
    await userEvent.click(canvas.getByRole('button', { name: 'Create Account and Join' }));
    await expect(await canvas.findByRole('heading', { name: 'Welcome to the chat!' })).toBeInTheDocument();
  },
};

/** Signed out, e-mail invitation of an existing account: the login prompt (and navigate to /login). */
export const LoginPrompt: Story = { decorators: [withConfab({ configure: answering('email', true) })] };

/** CompleteSignupForm on a phone (390×844). */
export const Narrow: Story = { ...CompleteSignupForm, ...narrow, tags: ['narrow'] };

/** CompleteSignupForm, right to left. */
export const RightToLeft: Story = { ...CompleteSignupForm, parameters: { ...CompleteSignupForm.parameters, direction: 'rtl' } };
