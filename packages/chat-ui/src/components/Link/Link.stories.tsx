import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { Link } from './Link';

const meta = {
  title: 'Parts/Link',
  component: Link,
  decorators: [withConfab()],
  args: { to: '/register', children: 'Create an account' },
  parameters: { layout: 'centered' },
} satisfies Meta<typeof Link>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A click logs `navigate` in the Actions panel; Ctrl/Cmd-click opens a new tab as usual. */
export const Default: Story = {};
export const Replace: Story = { args: { to: '/login', replace: true, children: 'Back to Login' } };
