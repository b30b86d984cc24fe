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
