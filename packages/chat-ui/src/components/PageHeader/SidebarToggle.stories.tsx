import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { narrow } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { SidebarToggle } from './SidebarToggle';

/** The small-screen menu button ('Open sidebar' / 'Close sidebar'); CSS hides it on wide screens. */
const meta = {
  title: 'Components/PageHeader/SidebarToggle',
  component: SidebarToggle,
  ...narrow,
  tags: ['narrow'],
  decorators: [(Story) => <header style={{ padding: 16 }}><Story /></header>, withConfab({ signedIn: true })],
} satisfies Meta<typeof SidebarToggle>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Closed: Story = {};

export const Open: Story = { decorators: [withConfab({ signedIn: true, state: { sidebarOpen: true } })] };

/** Space toggles it; aria-expanded and the name follow. */
export const ToggleWithKeyboard: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const button = canvas.getByRole('button', { name: 'Open sidebar' });
    button.focus();
    await userEvent.keyboard(' ');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    await expect(button).toHaveAccessibleName('Close sidebar');
  },
};
