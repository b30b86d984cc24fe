import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { withConfab } from '../../storybook/withConfab';
import { ForgotPasswordScreen } from './ForgotPasswordScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/ForgotPasswordScreen',
  component: ForgotPasswordScreen,
  decorators: [withConfab()],
} satisfies Meta<typeof ForgotPasswordScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

async function send(canvasElement: HTMLElement, email: string) {
  const canvas = within(canvasElement);
  if (email) await userEvent.type(canvas.getByLabelText('Email'), email);
  await userEvent.click(canvas.getByRole('button', { name: 'Send Reset Link' }));
  return canvas;
}

export const Idle: Story = {};

export const Prefilled: Story = { args: { initialEmail: 'alice@example.com' } };

export const EmailRequired: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await send(canvasElement, '');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter your email address');
  },
};

export const Sending: Story = {
  decorators: [withConfab({ pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = await send(canvasElement, 'alice@example.com');
    await expect(canvas.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  },
};

export const NoAccount: Story = {
  decorators: [
    withConfab({ configure: (backend) => backend.override('POST /api/collections/users/request-password-reset', () => errorResponse(404, 'Not found.')) }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = await send(canvasElement, 'nobody@example.com');
    await expect(await canvas.findByRole('alert')).toHaveTextContent('No account found with that email address');
  },
};

export const Failed: Story = {
  decorators: [
    withConfab({ configure: (backend) => backend.override('POST /api/collections/users/request-password-reset', () => new Response('', { status: 500 })) }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = await send(canvasElement, 'alice@example.com');
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Failed to send password reset email. Please try again.');
  },
};

export const Sent: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await send(canvasElement, 'alice@example.com');
    await expect(await canvas.findByRole('status')).toHaveTextContent('Password reset email sent!');
  },
};

/** Idle on a phone (390×844). */
export const Narrow: Story = { ...Idle, ...narrow, tags: ['narrow'] };

/** Idle, right to left. */
export const RightToLeft: Story = { ...Idle, parameters: { ...Idle.parameters, direction: 'rtl' } };
