import type { Meta, StoryObj } from '@storybook/react-vite';
import { FormField } from '../FormField/FormField';
import { CardForm } from './CardForm';

const meta = {
  title: 'Parts/CardForm',
  component: CardForm,
  args: {
    title: 'Create an agent',
    submitLabel: 'Create Agent',
    busyLabel: 'Creating...',
    busy: false,
    error: null,
    onSubmit: (event) => event.preventDefault(),
    children: <FormField label="Name" name="name" autoComplete="off" />,
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof CardForm>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

/** Submitting: the button reads 'Creating...' and is disabled (the fields are the caller's). */
export const Busy: Story = { args: { busy: true, children: <FormField label="Name" name="name" defaultValue="Weather Bot" disabled /> } };

/** A validation text or a refusal, announced and describing the form. */
export const WithError: Story = { args: { error: 'Please enter an agent name' } };
