import type { Meta, StoryObj } from '@storybook/react-vite';
import { seedStoryDrops } from '../../storybook/storyDrops';
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

export const NotFound: Story = { args: { slug: 'no-such-drop' }, decorators: [withConfab({ signedIn: true, configure: seedStoryDrops })] };

export const Failed: Story = {
  decorators: [withConfab({ signedIn: true, configure: (backend) => backend.override('GET /api/drops/launch-checklist-for-v2', () => errorResponse(500, 'Down.')) })],
};

export const Loading: Story = { decorators: [withConfab({ signedIn: true, pending: true })] };
