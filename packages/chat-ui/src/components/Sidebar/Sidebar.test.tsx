import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatRecord } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { chatRecord } from '../../testing/builders';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { Sidebar } from './Sidebar';

const alice = { username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const chats: ChatRecord[] = [chatRecord({ id: 'c1', name: 'Design', description: 'Weekly sync' }), chatRecord({ id: 'c2', name: 'Random' })];

describe('Sidebar', () => {
  it('lists chats, highlights the current one and opens a chat', async () => {
    const { client, user, navigate } = renderWithConfab(<Sidebar />);
    act(() => client.store.setState({ chats, currentChat: chats[1] ?? null }));
    const list = screen.getByRole('navigation', { name: 'Chats' });
    expect(within(list).getByRole('link', { name: 'Design', description: 'Weekly sync' })).not.toHaveAttribute('aria-current');
    expect(within(list).getByRole('link', { name: 'Random', description: 'No description' })).toHaveAttribute('aria-current', 'page');
    expect(within(list).getByRole('link', { name: 'Design' })).toHaveAttribute('href', '/chat/c1');
    await user.click(within(list).getByRole('link', { name: 'Design' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/c1');
    // A modified click is the browser's (a new tab), not the app's.
    navigate.mockClear();
    await user.keyboard('{Control>}');
    await user.click(within(list).getByRole('link', { name: 'Random' }));
    await user.keyboard('{/Control}');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows loading, empty and error states', async () => {
    const { client } = renderWithConfab(<Sidebar />);
    expect(screen.getByText('No chats yet. Start one with New Chat.')).toBeInTheDocument();
    act(() => client.store.setState({ chatsLoading: true }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading chats...');
    act(() => client.store.setState({ chatsLoading: false, chatsError: 'offline' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load chats.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("'Try again' reloads the chat list from the server", async () => {
    const backend = createFakeBackend({ users: [alice] });
    const { client, user } = renderWithConfab(<Sidebar />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    const me = backend.users[0]?.id ?? '';
    backend.addChat({ id: 'chat_reload', name: 'Recovered', participants: [me] });
    act(() => client.store.setState({ chatsError: 'offline' }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Recovered' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("'New Chat' goes to /chat/new", async () => {
    const { user, navigate } = renderWithConfab(<Sidebar />);
    await user.click(screen.getByRole('button', { name: 'New Chat' }));
    expect(navigate).toHaveBeenCalledWith('/chat/new');
  });
});
