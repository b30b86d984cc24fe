import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { withConfab } from '../../storybook/withConfab';
import { CompleteSignupPage } from './CompleteSignupPage';
import { narrow } from '../../storybook/storyStates';

const meta = {
  title: 'Screens/CompleteSignupPage',
  component: CompleteSignupPage,
  decorators: [withConfab()],
  args: { userId: 'tempuser000001', chatId: 'chat1', tempPassword: 'temp-pass' },
} satisfies Meta<typeof CompleteSignupPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Form: Story = {};

export const InvalidLink: Story = {
  args: { userId: null },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Invalid signup link. Please request a new invitation.')).toBeVisible();
  },
};

export const UsernameRequired: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Complete Signup' }));
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter a username');
  },
};

/** Form on a phone (390×844). */
export const Narrow: Story = { ...Form, ...narrow, tags: ['narrow'] };

/** Form, right to left. */
export const RightToLeft: Story = { ...Form, parameters: { ...Form.parameters, direction: 'rtl' } };
