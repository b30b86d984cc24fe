import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from './Button';

const meta = {
  title: 'Parts/Button',
  component: Button,
  args: { children: 'Create Account' },
  parameters: { layout: 'centered' },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = {};
export const Secondary: Story = { args: { variant: 'secondary', children: 'Back to Login' } };
export const Ghost: Story = { args: { variant: 'ghost', children: 'Logout' } };
export const Danger: Story = { args: { variant: 'danger', children: 'Delete chat' } };
export const Disabled: Story = { args: { disabled: true, children: 'Creating account...' } };
export const FullWidth: Story = { args: { fullWidth: true }, parameters: { layout: 'padded' } };
