import type { ReactNode } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { PendingInvitation } from '@confab/client';
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

/** The sidebar's dark rail, which the list is drawn for. */
function OnRail({ children }: { children: ReactNode }) {
  return (
    <aside className="cf-sidebar" style={{ height: 'auto' }}>
      {children}
    </aside>
  );
}

const meta = {
  title: 'Components/PendingInvitations',
  component: PendingInvitations,
  args: { onOpenChat: action('open chat') },
  decorators: [(Story) => <OnRail>{Story()}</OnRail>],
} satisfies Meta<typeof PendingInvitations>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two invitations; Accept and Decline work against the fake backend. */
export const Populated: Story = { decorators: [withConfab({ signedIn: true, state: { invitations } })] };

export const Loading: Story = { decorators: [withConfab({ signedIn: true, state: { invitationsLoading: true } })] };

export const LoadFailed: Story = {
  decorators: [
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
    withConfab({
      signedIn: true,
      state: { invitations },
      configure: (backend) => backend.override('POST /api/my-invitations/invitation00001/accept', () => errorResponse(500, 'Something went wrong.')),
    }),
  ],
};

/** No invitations: the component renders nothing. */
export const Empty: Story = { decorators: [withConfab({ signedIn: true })] };
