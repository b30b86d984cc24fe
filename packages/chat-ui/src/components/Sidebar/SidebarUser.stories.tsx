import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { onSidebarRail } from '../../storybook/onSidebarRail';
import { storyUserRecord } from '../../storybook/storyClient';
import { longNames, rtlText, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { SidebarUser } from './SidebarUser';

/** The signed-in user's name, 'Online', and Logout. */
const meta = {
  title: 'Components/Sidebar/SidebarUser',
  component: SidebarUser,
} satisfies Meta<typeof SidebarUser>;

export default meta;
type Story = StoryObj<typeof meta>;

const onRail = [onSidebarRail, withConfab({ signedIn: true })];

export const SignedIn: Story = {
  decorators: onRail,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Alice Liddell')).toBeVisible();
    await expect(canvas.getByText('Online')).toBeVisible();
  },
};

/** Logout from the keyboard signs out (and navigates to /login, see Actions). */
export const LogoutWithKeyboard: Story = {
  decorators: onRail,
  play: async ({ canvasElement }) => {
    const logout = within(canvasElement).getByRole('button', { name: 'Logout' });
    logout.focus();
    await userEvent.keyboard('{Enter}');
    await expect(within(canvasElement).getByText('Guest')).toBeVisible();
  },
};

export const LongName: Story = {
  decorators: [onSidebarRail, withConfab({ signedIn: true, state: { user: { ...storyUserRecord, name: longNames.person } } })],
};

export const RightToLeft: Story = {
  decorators: [onSidebarRail, withRtl, withConfab({ signedIn: true, state: { user: { ...storyUserRecord, name: rtlText.person } } })],
};
