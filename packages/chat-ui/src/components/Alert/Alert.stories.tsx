import type { Meta, StoryObj } from '@storybook/react-vite';
import { Alert } from './Alert';

const meta = {
  title: 'Parts/Alert',
  component: Alert,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Alert>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Validation: Story = { args: { children: 'Please enter both username and password' } };
export const Server: Story = { args: { children: 'Email: Value must be unique. Username: Value must be unique' } };
export const Long: Story = { args: { children: 'Invalid or missing reset token. Please request a new password reset.' } };
