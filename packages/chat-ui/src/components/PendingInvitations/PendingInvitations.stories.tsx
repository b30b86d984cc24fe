import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { expect, userEvent, within } from 'storybook/test';
import type { PendingInvitation } from '@confab/client';
import { onSidebarRail } from '../../storybook/onSidebarRail';
import { withConfab } from '../../storybook/withConfab';
import { errorResponse } from '@confab/client/testing/fakeBackend';
import { PendingInvitations } from './PendingInvitations';

const invitations: PendingInvitation[] = [
  {
    id: 'invitation00001',
    chat: { id: 'chat00000000001', name: 'Product launch' },
    invited_by: { username: 'bob', name: 'Bob Builder' },
    created: '2026-01-01 09:00:00.000Z',
    expires_at: '2026-01-08 09:00:00.000Z',
  },
  {
    id: 'invitation00002',
    chat: { id: 'chat00000000009', name: 'A rather long chat name that has to wrap in the sidebar' },
    invited_by: null,
    created: '2026-01-01 08:00:00.000Z',
    expires_at: '2026-01-08 08:00:00.000Z',
  },
];

const meta = {
  title: 'Components/PendingInvitations',
  component: PendingInvitations,
  args: { onOpenChat: action('open chat') },
} satisfies Meta<typeof PendingInvitations>;

export default meta;
type Story = StoryObj<typeof meta>;

// Each story draws the list on the sidebar's dark rail, inside its provider (see onSidebarRail).

/** Two invitations; Accept and Decline work against the fake backend. */
export const Populated: Story = { decorators: [onSidebarRail, withConfab({ signedIn: true, state: { invitations } })] };

export const Loading: Story = { decorators: [onSidebarRail, withConfab({ signedIn: true, state: { invitationsLoading: true } })] };

export const LoadFailed: Story = {
  decorators: [
    onSidebarRail,
    withConfab({
      signedIn: true,
      state: { invitationsError: 'Something went wrong.' },
      configure: (backend) => backend.override('GET /api/my-invitations', () => errorResponse(500, 'Something went wrong.')),
    }),
  ],
};

/** Accepting fails: press Accept to see the message on the item. */
export const AcceptFails: Story = {
  decorators: [
    onSidebarRail,
    withConfab({
      signedIn: true,
      state: { invitations },
      configure: (backend) => backend.override('POST /api/my-invitations/invitation00001/accept', () => errorResponse(500, 'Something went wrong.')),
    }),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Accept invitation to Product launch' }));
    await expect(await canvas.findByRole('alert')).toBeVisible();
  },
};

/** No invitations: the component renders nothing. */
export const Empty: Story = { decorators: [onSidebarRail, withConfab({ signedIn: true })] };
