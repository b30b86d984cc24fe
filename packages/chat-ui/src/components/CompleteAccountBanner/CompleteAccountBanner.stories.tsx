import type { Meta, StoryObj } from '@storybook/react-vite';
import { storyUserRecord } from '../../storybook/storyClient';
import { withConfab } from '../../storybook/withConfab';
import { CompleteAccountBanner } from './CompleteAccountBanner';

const temporaryUser = { ...storyUserRecord, username: 'user_k3x9q0w2ab', soft_registered: true, signup_completed: false };

const meta = {
  title: 'Parts/CompleteAccountBanner',
  component: CompleteAccountBanner,
  decorators: [withConfab({ signedIn: true, state: { user: temporaryUser } })],
  beforeEach: () => sessionStorage.clear(),
} satisfies Meta<typeof CompleteAccountBanner>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A soft-registered user who has not completed signup. */
export const Shown: Story = {};

/** A full user: nothing is rendered. */
export const FullUser: Story = { decorators: [withConfab({ signedIn: true })] };
