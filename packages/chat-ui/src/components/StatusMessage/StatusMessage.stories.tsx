import type { Meta, StoryObj } from '@storybook/react-vite';
import { StatusMessage } from './StatusMessage';

const meta = {
  title: 'Parts/StatusMessage',
  component: StatusMessage,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof StatusMessage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Success: Story = { args: { children: 'Password reset successful! You can now log in with your new password.' } };
export const Info: Story = { args: { variant: 'info', children: 'Sending...' } };
