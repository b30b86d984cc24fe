import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { LoginScreen } from './LoginScreen';

const meta = {
  title: 'Screens/LoginScreen',
  component: LoginScreen,
  decorators: [withConfab()],
  args: { redirectTo: '/' },
} satisfies Meta<typeof LoginScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

async function signIn(canvasElement: HTMLElement, username: string, password: string) {
  const canvas = within(canvasElement);
  if (username) await userEvent.type(canvas.getByLabelText('Username'), username);
  if (password) await userEvent.type(canvas.getByLabelText('Password'), password);
  await userEvent.click(canvas.getByRole('button', { name: 'Sign In' }));
  return canvas;
}

export const Idle: Story = {};

export const ValidationError: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await signIn(canvasElement, 'alice', '');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter both username and password');
  },
};

/** The request never answers, so the form stays busy. */
export const Submitting: Story = {
  decorators: [withConfab({ pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = await signIn(canvasElement, 'alice', 'wonderland');
    await expect(canvas.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
  },
};

export const WrongPassword: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await signIn(canvasElement, 'alice', 'not-the-password');
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to authenticate.');
  },
};

export const ServerUnavailable: Story = {
  decorators: [withConfab({ configure: (backend) => backend.override('POST /api/collections/users/auth-with-password', () => new Response('', { status: 502 })) })],
  play: async ({ canvasElement }) => {
    const canvas = await signIn(canvasElement, 'alice', 'wonderland');
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Login failed. Please try again.');
  },
};

export const RateLimited: Story = {
  decorators: [
    withConfab({
      configure: (backend) =>
        backend.override('POST /api/collections/users/auth-with-password', () => errorResponse(429, 'Too many login attempts. Please wait a minute.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    await signIn(canvasElement, 'alice', 'wonderland');
  },
};

/** Signs in against the fake backend; watch the navigate action fire with the redirect target. */
export const SuccessWithRedirect: Story = {
  args: { redirectTo: '/join/abc123' },
  play: async ({ canvasElement }) => {
    await signIn(canvasElement, 'alice', 'wonderland');
  },
};

/** Keyboard only: Tab from Username to Password, Enter submits; the missing password is announced. */
export const KeyboardOnly: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByLabelText('Username'));
    await userEvent.keyboard('alice');
    await userEvent.tab();
    await expect(canvas.getByLabelText('Password')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter both username and password');
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = { decorators: [withRtl] };
