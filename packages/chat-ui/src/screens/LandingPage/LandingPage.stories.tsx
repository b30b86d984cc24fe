import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { LandingPage } from './LandingPage';

const meta = {
  title: 'Screens/LandingPage',
  component: LandingPage,
  decorators: [withConfab()],
} satisfies Meta<typeof LandingPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};

/** Narrow screens: the in-page link hides, Sign In stays. Use the viewport toolbar to compare. */
export const Mobile: Story = {
  ...narrow,
  tags: ['narrow'],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('link', { name: /Sign In/i })[0]).toBeVisible();
  },
};

export const RightToLeft: Story = { decorators: [withRtl] };

export const CustomCallToAction: Story = {
  args: { getStartedPath: '/register?source=partner-site&user_type=developer' },
};
