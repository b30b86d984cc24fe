import type { Meta, StoryObj } from '@storybook/react-vite';
import { withConfab } from '../../storybook/withConfab';
import { InitializingScreen } from './InitializingScreen';

const meta = {
  title: 'Screens/InitializingScreen',
  component: InitializingScreen,
  decorators: [withConfab()],
} satisfies Meta<typeof InitializingScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

export const CustomMessage: Story = { args: { message: 'Restoring your session...' } };
