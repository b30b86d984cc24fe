import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import { commonEmoji } from './commonEmoji';
import { ReactionPicker } from './ReactionPicker';

const meta = {
  title: 'Components/ReactionPicker',
  component: ReactionPicker,
  args: { onPick: action('pick'), onClose: action('close') },
  decorators: [(Story) => <div style={{ maxWidth: 420, padding: 16 }}><Story /></div>],
} satisfies Meta<typeof ReactionPicker>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The common emoji, the search box focused. */
export const Common: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByLabelText('Search emoji')).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect(canvas.getByRole('button', { name: 'thumbs up' })).toHaveFocus();
  },
};

/** A search over the whole list (loaded on the first letter). */
export const Searching: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByLabelText('Search emoji'), 'cat');
    await expect(await canvas.findByRole('button', { name: 'cat face' }, { timeout: 10_000 })).toBeInTheDocument();
  },
};

/** The list is still on its way. */
export const Loading: Story = {
  args: { loadList: () => new Promise(() => {}) },
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Search emoji'), 'cat');
  },
};

/** Nothing matches the search. */
export const NoMatch: Story = {
  args: { loadList: async () => commonEmoji },
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Search emoji'), 'zebra');
  },
};

/** The list could not be loaded (offline): said in an alert, the common emoji still work. */
export const LoadFailed: Story = {
  args: { loadList: () => Promise.reject(new Error('offline')) },
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByLabelText('Search emoji'), 'cat');
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent('The emoji list could not be loaded.');
  },
};
