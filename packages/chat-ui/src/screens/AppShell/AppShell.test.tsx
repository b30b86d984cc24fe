import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatRecord } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { AppShell } from './AppShell';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

async function renderSignedIn() {
  const backend = createFakeBackend({ users: [alice] });
  const result = renderWithConfab(<AppShell />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

function chat(id: string, name: string, description: string): ChatRecord {
  return { id, name, description, creator: 'x', participants: [], admins: [], created: '', updated: '' };
}

describe('AppShell invitations', () => {
  it('loads pending invitations into the sidebar; Accept joins and opens the chat', async () => {
    const backend = createFakeBackend({ users: [alice] });
    const bobId = 'user_bob_000001';
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [bobId] });
    const result = renderWithConfab(<AppShell />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    const aliceId = result.client.requireUser().id;
    backend.addInvitation({ chat: { id: 'chat_design_001', name: 'Design' }, invitee: aliceId });
    // Signed in before the invitation existed: the frame that would announce it is simulated by a reload.
    await act(() => result.client.invitations.listPending());
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    const invitations = within(sidebar).getByRole('region', { name: /Invitations/ });
    expect(within(invitations).getByRole('listitem', { name: 'Design' })).toHaveTextContent('Invited by Bob Builder (@bob)');
    await result.user.click(within(invitations).getByRole('button', { name: 'Accept invitation to Design' }));
    expect(result.navigate).toHaveBeenLastCalledWith('/chat/chat_design_001');
    const chats = within(sidebar).getByRole('navigation', { name: 'Chats' });
    expect(await within(chats).findByRole('link', { name: /Design/ })).toBeInTheDocument();
    expect(within(sidebar).queryByRole('region', { name: /Invitations/ })).not.toBeInTheDocument();
  });

  it('asks for the invitations once signed in', async () => {
    const { backend } = await renderSignedIn();
    await vi.waitFor(() => expect(backend.requests.some((request) => request.route === 'GET /api/my-invitations')).toBe(true));
  });
});

describe('AppShell', () => {
  it("shows the user's name, status Online and the empty main area", async () => {
    await renderSignedIn();
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Alice Liddell')).toBeInTheDocument();
    expect(within(sidebar).getByText('Online')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Select a chat to get started' })).toBeInTheDocument();
  });

  it('navigates from the workspace buttons, with DEV and ADMIN labels', async () => {
    const { user, navigate } = await renderSignedIn();
    const workspace = screen.getByRole('navigation', { name: 'Workspace' });
    const expected: Array<[RegExp, string]> = [
      [/^Drops Feed$/, '/drops'],
      [/^My Profile$/, '/profile'],
      [/^My Agents DEV$/, '/agents'],
      [/^Confab Agents ADMIN$/, '/admin/confab-agents'],
    ];
    for (const [name, path] of expected) {
      await user.click(within(workspace).getByRole('button', { name }));
      expect(navigate).toHaveBeenLastCalledWith(path);
    }
    await user.click(screen.getByRole('button', { name: 'New Chat' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/new');
  });

  it("lists chats with their description or 'No description'", async () => {
    const { client, user, navigate } = await renderSignedIn();
    act(() => client.store.setState({ chats: [chat('c1', 'Design', 'Weekly sync'), chat('c2', 'Random', '')] }));
    const chats = screen.getByRole('navigation', { name: 'Chats' });
    expect(within(chats).getByRole('link', { name: 'Design', description: 'Weekly sync' })).toBeInTheDocument();
    await user.click(within(chats).getByRole('link', { name: 'Random', description: 'No description' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/c2');
  });

  it('logs out: clears the session and replaces the history entry with /login', async () => {
    const { user, navigate, client } = await renderSignedIn();
    expect(client.store.getState().isAuthenticated).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(client.store.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(client.pb.authStore.token).toBe('');
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('opens the sidebar from the menu button and closes it with the overlay', async () => {
    const { user, client, container } = await renderSignedIn();
    const toggle = screen.getByRole('button', { name: 'Open sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(container.querySelector('.cf-shell__overlay')).toBeNull();

    await user.click(toggle);
    expect(client.store.getState().sidebarOpen).toBe(true);
    expect(screen.getByRole('button', { name: 'Close sidebar' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(container.querySelector('.cf-shell__overlay') as HTMLElement);
    expect(client.store.getState().sidebarOpen).toBe(false);
    expect(container.querySelector('.cf-shell__overlay')).toBeNull();
  });

  it('moves focus into the opened sidebar, and Escape closes it and returns focus to the menu button', async () => {
    const { user, client } = await renderSignedIn();
    await user.click(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(screen.getByRole('button', { name: 'New Chat' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(client.store.getState().sidebarOpen).toBe(false);
    expect(screen.getByRole('button', { name: 'Open sidebar' })).toHaveFocus();
  });

  it('closes the drawer after navigating from it', async () => {
    const { user, client } = await renderSignedIn();
    await user.click(screen.getByRole('button', { name: 'Open sidebar' }));
    await user.click(screen.getByRole('button', { name: 'Drops Feed' }));
    expect(client.store.getState().sidebarOpen).toBe(false);
  });

  it('loads the chat list from the server once signed in, and highlights the active chat', async () => {
    const backend = createFakeBackend({ users: [alice] });
    const me = backend.users[0]?.id ?? '';
    backend.addChat({ id: 'chat_loaded_001', name: 'From server', description: 'Loaded', participants: [me] });
    const result = renderWithConfab(<AppShell activeChatId="chat_loaded_001" />, { backend });
    await act(() => result.client.login('alice', 'wonderland'));
    const chats = screen.getByRole('navigation', { name: 'Chats' });
    expect(await within(chats).findByRole('link', { name: 'From server', description: 'Loaded' })).toHaveAttribute('aria-current', 'page');
  });

  it('renders custom main content instead of the empty state', async () => {
    const backend = createFakeBackend();
    renderWithConfab(
      <AppShell>
        <p>Chat goes here</p>
      </AppShell>,
      { backend },
    );
    expect(screen.getByText('Chat goes here')).toBeInTheDocument();
    expect(screen.queryByText('Select a chat to get started')).not.toBeInTheDocument();
  });
});
