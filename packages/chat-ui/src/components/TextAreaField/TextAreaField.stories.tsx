import type { Meta, StoryObj } from '@storybook/react-vite';
import { TextAreaField } from './TextAreaField';

const meta = {
  title: 'Parts/TextAreaField',
  component: TextAreaField,
  args: { label: 'Description', hint: "The agent's persona: what it does and how it answers." },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof TextAreaField>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = {
  args: { defaultValue: 'You are a careful editor.\nAnswer in plain English, in at most five sentences.\nQuote the text you change.' },
};
export const Disabled: Story = { args: { disabled: true, defaultValue: 'You are a careful editor.' } };
