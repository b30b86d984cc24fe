import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { AuthLayout } from '../../components/AuthLayout/AuthLayout';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { SetNewPasswordForm } from './SetNewPasswordForm';

/** The with-token half of Reset Your Password on its own (ResetPasswordScreen shows every answer). */
const meta = {
  title: 'Screens/ResetPasswordScreen/SetNewPasswordForm',
  component: SetNewPasswordForm,
  args: { token: 'story-reset-token' },
  decorators: [
    (Story) => (
      <AuthLayout title="Set New Password">
        <Story />
      </AuthLayout>
    ),
    withConfab(),
  ],
} satisfies Meta<typeof SetNewPasswordForm>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

/** Keyboard only: Tab to each field, Enter submits; the mismatch is announced. */
export const KeyboardMismatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByLabelText('New Password'));
    await userEvent.keyboard('secret-one');
    await userEvent.tab();
    await expect(canvas.getByLabelText('Confirm New Password')).toHaveFocus();
    await userEvent.keyboard('secret-two{Enter}');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Passwords do not match');
  },
};

/** Busy: 'Resetting...' while the request is held. */
export const Busy: Story = {
  decorators: [withConfab({ pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('New Password'), 'secret-one');
    await userEvent.type(canvas.getByLabelText('Confirm New Password'), 'secret-one');
    await userEvent.click(canvas.getByRole('button', { name: 'Reset Password' }));
    await expect(canvas.getByRole('button', { name: 'Resetting...' })).toBeDisabled();
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = { decorators: [withRtl] };
