import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { Button } from '../Button/Button';
import { FormField } from '../FormField/FormField';
import { AuthLayout } from './AuthLayout';

const meta = {
  title: 'Parts/AuthLayout',
  component: AuthLayout,
  decorators: [withConfab()],
  args: { title: 'Sign In', description: 'Welcome back. Sign in to continue to your chats.' },
} satisfies Meta<typeof AuthLayout>;

export default meta;
type Story = StoryObj<typeof meta>;

export const TitleOnly: Story = { args: { description: undefined } };

export const WithForm: Story = {
  args: {
    children: (
      <form className="cf-form" onSubmit={(event) => event.preventDefault()}>
        <FormField label="Username" />
        <FormField label="Password" type="password" />
        <Button type="submit" fullWidth>
          Sign In
        </Button>
      </form>
    ),
    footer: <span>Footer links go here</span>,
  },
};
