import type { Meta, StoryObj } from '@storybook/react-vite';
import { FormField } from './FormField';

const meta = {
  title: 'Parts/FormField',
  component: FormField,
  args: { label: 'Email', type: 'email', placeholder: 'you@example.com' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof FormField>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = { args: { defaultValue: 'alice@example.com' } };
export const WithHint: Story = { args: { label: 'Password', type: 'password', hint: 'At least 8 characters.', placeholder: undefined } };
export const Disabled: Story = { args: { disabled: true, defaultValue: 'alice@example.com' } };
