import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { PendingInvitations } from './PendingInvitations';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };

async function setup(configure?: (backend: ReturnType<typeof createFakeBackend>) => void) {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [bob.id] });
  backend.addInvitation({ id: 'invitation00001', chat: { id: 'chat_design_001', name: 'Design' }, invitee: alice.id });
  backend.addInvitation({
    id: 'invitation00002',
    chat: { id: 'chat_launch_001', name: 'Launch' },
    invited_by: { username: 'carol', name: '' },
    invitee: alice.id,
  });
  configure?.(backend);
  const onOpenChat = vi.fn();
  const result = renderWithConfab(<PendingInvitations onOpenChat={onOpenChat} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, onOpenChat };
}

const list = () => screen.getByRole('region', { name: /Invitations/ });

describe('PendingInvitations', () => {
  it('shows nothing while there are no invitations', async () => {
    const { client, container } = await setup((backend) => backend.invitations.splice(0));
    await act(() => client.invitations.listPending());
    // Inside the provider's theme root (<div class="confab-root">), nothing at all.
    expect(container.querySelector('.confab-root')).toBeEmptyDOMElement();
  });

  it('shows a loading state, then each invitation with its chat and who invited', async () => {
    const { client, backend } = await setup();
    const release = backend.hold();
    const loading = client.invitations.listPending();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading invitations...');
    await act(async () => {
      release();
      await loading;
    });
    const items = within(list()).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Invited by Bob Builder (@bob)'),
      expect.stringContaining('Invited by @carol'),
    ]);
    expect(within(list()).getByRole('listitem', { name: 'Design' })).toBeInTheDocument();
    expect(within(list()).getByRole('heading', { name: 'Invitations 2' })).toBeInTheDocument();
  });

  it('accepts with the keyboard: the user joins and the chat opens', async () => {
    const { client, user, onOpenChat, backend } = await setup();
    await act(() => client.invitations.listPending());
    const accept = screen.getByRole('button', { name: 'Accept invitation to Design' });
    accept.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onOpenChat).toHaveBeenCalledWith('chat_design_001'));
    expect(backend.chats[0]?.participants).toContain(alice.id);
    expect(screen.queryByRole('listitem', { name: 'Design' })).not.toBeInTheDocument();
    expect(client.store.getState().chats.map((chat) => chat.id)).toEqual(['chat_design_001']);
  });

  it('declines: the invitation leaves the list and nobody joins', async () => {
    const { client, user, onOpenChat, backend } = await setup();
    await act(() => client.invitations.listPending());
    await user.click(screen.getByRole('button', { name: 'Decline invitation to Launch' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Launch' })).not.toBeInTheDocument());
    expect(backend.invitations.map((invitation) => invitation.id)).toEqual(['invitation00001']);
    expect(onOpenChat).not.toHaveBeenCalled();
  });

  it('says when an invitation is no longer valid, and drops it', async () => {
    const { client, user, backend } = await setup();
    await act(() => client.invitations.listPending());
    backend.invitations.splice(0, 1);
    await user.click(screen.getByRole('button', { name: 'Accept invitation to Design' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation is no longer valid.');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Design' })).not.toBeInTheDocument());
  });

  it('keeps the invitation and says so when accepting fails', async () => {
    const { client, user } = await setup((backend) =>
      backend.override('POST /api/my-invitations/invitation00001/accept', () => errorResponse(500, 'boom')),
    );
    await act(() => client.invitations.listPending());
    await user.click(screen.getByRole('button', { name: 'Accept invitation to Design' }));
    const item = screen.getByRole('listitem', { name: 'Design' });
    expect(await within(item).findByRole('alert')).toHaveTextContent('Failed to accept the invitation. Please try again.');
    expect(within(item).getByRole('button', { name: 'Accept invitation to Design' })).toBeEnabled();
  });

  it('shows a failed load with Try again', async () => {
    const { client, user, backend } = await setup((fake) => fake.override('GET /api/my-invitations', () => errorResponse(500, 'boom')));
    await act(() => client.invitations.listPending().catch(() => {}));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load invitations.');
    backend.override('GET /api/my-invitations', () => new Response(JSON.stringify({ invitations: [] }), { status: 200 }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('follows the store: an invitation that arrives live appears at once', async () => {
    const { client } = await setup((backend) => backend.invitations.splice(0));
    await act(() => client.invitations.listPending());
    act(() =>
      client.store.setState({
        invitations: [{ id: 'invitation00009', chat: { id: 'c9', name: 'Live' }, invited_by: null, created: '', expires_at: '' }],
      }),
    );
    expect(screen.getByRole('listitem', { name: 'Live' })).toHaveTextContent('Invited by someone');
  });
});
