import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { RegisterScreen } from './RegisterScreen';

const meta = {
  title: 'Screens/RegisterScreen',
  component: RegisterScreen,
  decorators: [withConfab()],
  args: { source: 'main-landing', userType: 'mixed' },
} satisfies Meta<typeof RegisterScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

async function register(
  canvasElement: HTMLElement,
  values: { email: string; username: string; password: string; confirm: string },
) {
  const canvas = within(canvasElement);
  if (values.email) await userEvent.type(canvas.getByLabelText('Email'), values.email);
  if (values.username) await userEvent.type(canvas.getByLabelText('Username'), values.username);
  if (values.password) await userEvent.type(canvas.getByLabelText('Password'), values.password);
  if (values.confirm) await userEvent.type(canvas.getByLabelText('Confirm Password'), values.confirm);
  await userEvent.click(canvas.getByRole('button', { name: 'Create Account' }));
  return canvas;
}

// Not one of the story backend's accounts (alice, bob, carol), so registering succeeds.
const newUser = { email: 'dora@example.com', username: 'dora', password: 'longenough', confirm: 'longenough' };

export const Idle: Story = {};

export const MissingFields: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, { ...newUser, confirm: '' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please fill in all fields');
  },
};

export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, { ...newUser, confirm: 'different1' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Passwords do not match');
  },
};

export const PasswordTooShort: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, { ...newUser, password: 'short', confirm: 'short' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
  },
};

/** Fields are disabled while the request is in flight (it never answers here). */
export const Submitting: Story = {
  decorators: [withConfab({ pending: true })],
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, newUser);
    await expect(canvas.getByLabelText('Email')).toBeDisabled();
  },
};

/** 'alice' already exists in the fake backend: the server's field errors are joined. */
export const TakenUsernameAndEmail: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, { ...newUser, email: 'alice@example.com', username: 'alice' });
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Email: The email is invalid or already in use. Username: The username is invalid or already in use');
  },
};

/** Account created and signed in; navigate('/') fires 0.5 s later (see Actions). */
export const Success: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await register(canvasElement, newUser);
    await expect(await canvas.findByRole('status')).toHaveTextContent('Account created!');
  },
};

/** Keyboard only: Tab through the four fields in order, Enter submits; a missing field is announced. */
export const KeyboardOnly: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByLabelText('Email'));
    await userEvent.keyboard('dora@example.com');
    await userEvent.tab();
    await expect(canvas.getByLabelText('Username')).toHaveFocus();
    await userEvent.keyboard('dora');
    await userEvent.tab();
    await expect(canvas.getByLabelText('Password')).toHaveFocus();
    await userEvent.keyboard('longenough{Enter}');
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please fill in all fields');
  },
};

export const Narrow: Story = { ...narrow, tags: ['narrow'] };

export const RightToLeft: Story = { decorators: [withRtl] };
