import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { seedStoryDrops } from '../../storybook/storyDrops';
import { narrow, withRtl } from '../../storybook/storyStates';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { DropScreen } from './DropScreen';

const meta = {
  title: 'Drops/DropScreen',
  component: DropScreen,
  args: { slug: 'launch-checklist-for-v2', confirm: () => true },
} satisfies Meta<typeof DropScreen>;

export default meta;
type Story = StoryObj<typeof meta>;

/** /drops/{slug}: a drop with its stats, like, bookmark, and content rendered like a message. */
export const Populated: Story = { decorators: [withConfab({ signedIn: true, configure: seedStoryDrops })] };

/** Alice wrote it: Delete (after asking). */
export const CanDelete: Story = {
  decorators: [
    withConfab({
      signedIn: true,
      configure: (backend) => {
        seedStoryDrops(backend);
        for (const drop of backend.dropData.drops) drop.can_delete = true;
      },
    }),
  ],
};

export const NotFound: Story = {
  args: { slug: 'no-such-drop' },
  decorators: [withConfab({ signedIn: true, configure: seedStoryDrops })],
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('Drop not found')).toBeVisible();
  },
};

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/drops/launch-checklist-for-v2', () => errorResponse(500, 'Down.')) })],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('Failed to load drop')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
  },
};

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };

export const Narrow: Story = { ...narrow, tags: ['narrow'], decorators: [withConfab({ signedIn: true, configure: seedStoryDrops })] };

export const RightToLeft: Story = { decorators: [withRtl, withConfab({ signedIn: true, configure: seedStoryDrops })] };
