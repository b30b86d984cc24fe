import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { ResetPasswordScreen } from './ResetPasswordScreen';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/ResetPasswordScreen',
  component: ResetPasswordScreen,
  decorators: [withConfab()],
  // The story backend accepts exactly this token once.
  args: { token: 'story-reset-token' },
} satisfies Meta<typeof ResetPasswordScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

async function reset(canvasElement: HTMLElement, password: string, confirm: string) {
  const canvas = within(canvasElement);
  if (password) await userEvent.type(canvas.getByLabelText('New Password'), password);
  if (confirm) await userEvent.type(canvas.getByLabelText('Confirm New Password'), confirm);
  await userEvent.click(canvas.getByRole('button', { name: 'Reset Password' }));
  return canvas;
}

/** Opened without ?token=: 'Reset Your Password' with the error and two ways out. */
export const MissingToken: Story = { args: { token: null } };

export const Idle: Story = {};

export const BothFieldsRequired: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'secret1', '');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter your new password in both fields');
  },
};

export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'secret1', 'secret2');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Passwords do not match');
  },
};

export const PasswordTooShort: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'abc', 'abc');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Password must be at least 6 characters long');
  },
};

export const Submitting: Story = {
  decorators: [withConfab({ pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'new-secret', 'new-secret');
    await expect(canvas.getByRole('button', { name: 'Resetting...' })).toBeDisabled();
  },
};

export const ExpiredToken: Story = {
  args: { token: 'expired-token' },
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'new-secret', 'new-secret');
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Invalid or expired reset token. Please request a new password reset.');
  },
};

/** Success; navigate('/login') fires 2 s later (see Actions). */
export const Success: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await reset(canvasElement, 'new-secret', 'new-secret');
    await expect(await canvas.findByRole('status')).toHaveTextContent('Password reset successful!');
  },
};

/** Idle on a phone (390×844). */
export const Narrow: Story = { ...Idle, ...narrow, tags: ['narrow'] };

/** Idle, right to left. */
export const RightToLeft: Story = { ...Idle, parameters: { ...Idle.parameters, direction: 'rtl' } };
