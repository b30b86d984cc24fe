import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { storyUserRecord } from '../../storybook/storyClient';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse, json } from '@confab/client/testing/fakeBackend';
import { CompleteAccountPage } from './CompleteAccountPage';

const temporaryUser = {
  ...storyUserRecord,
  username: 'user_k3x9q0w2ab',
  email: 'user_k3x9q0w2ab@temporary.confab.invalid',
  soft_registered: true,
  signup_completed: false,
};

const meta = {
  title: 'Screens/CompleteAccountPage',
  component: CompleteAccountPage,
  decorators: [
    withConfab({
      signedIn: true,
      state: { user: temporaryUser },
      configure: (backend) =>
        backend.override('POST /api/complete-account', (_request, body) =>
          body['username'] === 'taken'
            ? errorResponse(400, 'Failed.', { username: { code: 'validation_not_unique', message: 'Username already taken.' } })
            : json(200, { message: 'Account completed' }),
        ),
    }),
  ],
} satisfies Meta<typeof CompleteAccountPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Form: Story = {};

export const UsernameTaken: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(canvas.getByLabelText('Username'), 'taken');
    await userEvent.type(canvas.getByLabelText('Password'), 'longpass');
    await userEvent.type(canvas.getByLabelText('Confirm Password'), 'longpass');
    await userEvent.click(canvas.getByRole('button', { name: 'Secure Account' }));
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Username: Username already taken.');
  },
};

/** The story backend does not know the new credentials: the fallback message. */
export const UpdatedPleaseLogIn: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(canvas.getByLabelText('Username'), 'ada');
    await userEvent.type(canvas.getByLabelText('Password'), 'longpass');
    await userEvent.type(canvas.getByLabelText('Confirm Password'), 'longpass');
    await userEvent.click(canvas.getByRole('button', { name: 'Secure Account' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent('Account updated! Please log in with your new credentials.');
  },
};

export const AlreadyComplete: Story = { decorators: [withConfab({ signedIn: true })] };

async function secure(canvasElement: HTMLElement, values: { email: string; username: string; password: string; confirm: string }) {
  const canvas = within(canvasElement);
  const fields: Array<[string, string]> = [['Email', values.email], ['Username', values.username], ['Password', values.password], ['Confirm Password', values.confirm]];
  for (const [label, value] of fields) if (value) await userEvent.type(canvas.getByLabelText(label), value);
  await userEvent.click(canvas.getByRole('button', { name: 'Secure Account' }));
  return canvas;
}

export const AllFieldsRequired: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await secure(canvasElement, { email: 'ada@example.com', username: 'ada', password: '', confirm: '' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('All fields are required');
  },
};

export const InvalidEmail: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await secure(canvasElement, { email: 'not-an-address', username: 'ada', password: 'longpass', confirm: 'longpass' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter a valid email address');
  },
};

export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await secure(canvasElement, { email: 'ada@example.com', username: 'ada', password: 'longpass', confirm: 'longpasS' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Passwords do not match');
  },
};

export const PasswordTooShort: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await secure(canvasElement, { email: 'ada@example.com', username: 'ada', password: 'short', confirm: 'short' });
    await expect(canvas.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters');
  },
};
