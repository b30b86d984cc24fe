import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { storyUserRecord } from '../../storybook/storyClient';
import { withConfab } from '../../storybook/withConfab';
import { json, userRecord, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { ProfileScreen } from './ProfileScreen';
import { narrow } from '../../storybook/storyStates';

const answerUpdates = (backend: FakeBackend) => {
  const me = backend.users.find((user) => user.id === storyUserRecord.id)!;
  backend.override(`PATCH /api/collections/users/records/${me.id}`, (_request, body) => {
    if (typeof body['username'] === 'string') me.username = body['username'];
    return json(200, { ...userRecord(me), openai_api_key_set: 'openai_api_key' in body, gemini_api_key_set: 'gemini_api_key' in body });
  });
};

const meta = {
  title: 'Screens/ProfileScreen',
  component: ProfileScreen,
  decorators: [withConfab({ signedIn: true, configure: answerUpdates })],
} satisfies Meta<typeof ProfileScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

export const KeysSet: Story = {
  decorators: [withConfab({ signedIn: true, configure: answerUpdates, state: { user: { ...storyUserRecord, openai_api_key_set: true, openai_api_key_hint: 'sk-…9f2c' } } })],
};

export const NoChanges: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save Username' }));
    await expect(canvas.getByRole('status')).toHaveTextContent('No changes to save.');
  },
};

export const KeyRequired: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Save API Keys' }));
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter at least one API key.');
  },
};

export const KeysSaved: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Gemini API key'), 'gem-secret');
    await userEvent.click(canvas.getByRole('button', { name: 'Save API Keys' }));
    await expect(await canvas.findByRole('status')).toHaveTextContent('API keys saved successfully!');
  },
};

/** Idle on a phone (390×844). */
export const Narrow: Story = { ...Idle, ...narrow, tags: ['narrow'] };

/** Idle, right to left. */
export const RightToLeft: Story = { ...Idle, parameters: { ...Idle.parameters, direction: 'rtl' } };
