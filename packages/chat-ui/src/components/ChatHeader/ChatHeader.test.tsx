import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { ChatHeader, type ChatHeaderPart } from './ChatHeader';

function Harness({ onOpenFiles, onCreateDrop }: { onOpenFiles?: () => void; onCreateDrop?: () => void }) {
  const [query, setQuery] = useState('');
  return (
    <>
      <ChatHeader chat={{ id: 'c1', name: 'Design' }} searchQuery={query} onSearchChange={setQuery} onOpenFiles={onOpenFiles} onCreateDrop={onCreateDrop} />
      <p>query={query}</p>
    </>
  );
}

describe('ChatHeader', () => {
  it('shows the chat name and the connection state from the store', () => {
    const { client } = renderWithConfab(<Harness />);
    expect(screen.getByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    act(() => client.store.setState({ connectionState: 'connected', isConnected: true }));
    expect(screen.getByRole('status')).toHaveTextContent('Connected');
    act(() => client.store.setState({ connectionState: 'closed', isConnected: false }));
    expect(screen.getByRole('status')).toHaveTextContent('Connection Lost - Messages may not send');
    act(() => client.store.setState({ connectionState: 'connecting' }));
    // Reconnecting after a drop still warns.
    expect(screen.getByRole('status')).toHaveTextContent('Connection Lost - Messages may not send');
  });

  it("reads 'Connecting...' only before the first connection", () => {
    const { client } = renderWithConfab(<Harness />);
    act(() => client.store.setState({ connectionState: 'connecting' }));
    expect(screen.getByRole('status')).toHaveTextContent('Connecting...');
  });

  it('routes Invite User, View Drops and Chat Options; calls the panel handlers', async () => {
    const onOpenFiles = vi.fn();
    const onCreateDrop = vi.fn();
    const { user, navigate } = renderWithConfab(<Harness onOpenFiles={onOpenFiles} onCreateDrop={onCreateDrop} />);
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/c1/invite');
    await user.click(screen.getByRole('button', { name: 'View Drops' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/c1/drops');
    await user.click(screen.getByRole('button', { name: 'Chat Options' }));
    expect(navigate).toHaveBeenLastCalledWith('/chat/c1/options');
    await user.click(screen.getByRole('button', { name: 'Chat Files' }));
    await user.click(screen.getByRole('button', { name: 'Create a Drop' }));
    expect(onOpenFiles).toHaveBeenCalledOnce();
    expect(onCreateDrop).toHaveBeenCalledOnce();
  });

  it('disables Invite User for someone who may not invite, and says why', async () => {
    const { user, navigate } = renderWithConfab(
      <ChatHeader chat={{ id: 'c1', name: 'Design' }} searchQuery="" onSearchChange={() => {}} canInvite={false} />,
    );
    const invite = screen.getByRole('button', { name: 'Invite User' });
    expect(invite).toBeDisabled();
    expect(invite).toHaveAccessibleDescription('Only chat admins can invite people.');
    expect(invite.closest('[title]')).toHaveAttribute('title', 'Only chat admins can invite people.');
    await user.click(invite);
    expect(navigate).not.toHaveBeenCalled();
    // The other actions stay available.
    expect(screen.getByRole('button', { name: 'Chat Options' })).toBeEnabled();
  });

  it('disables Chat Files and Create a Drop without handlers', () => {
    renderWithConfab(<Harness />);
    expect(screen.getByRole('button', { name: 'Chat Files' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create a Drop' })).toBeDisabled();
  });

  it('reports the search text and clears it with Escape', async () => {
    const { user } = renderWithConfab(<Harness />);
    const search = screen.getByRole('searchbox', { name: 'Search messages' });
    await user.type(search, 'launch');
    expect(screen.getByText('query=launch')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(search).toHaveValue('');
  });

  it('has the sidebar menu button', async () => {
    const { user, client } = renderWithConfab(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(client.store.getState().sidebarOpen).toBe(true);
  });

  it("keeps the phone's search and actions behind two buttons: the menu closes after a choice or with Escape", async () => {
    const onOpenFiles = vi.fn();
    const { user } = renderWithConfab(<Harness onOpenFiles={onOpenFiles} />);
    const header = screen.getByRole('banner');
    const menu = screen.getByRole('button', { name: 'Chat actions' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Chat actions' }).id);

    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(header).toHaveClass('cf-chat-header--actions-open');
    await user.click(screen.getByRole('button', { name: 'Chat Files' }));
    expect(onOpenFiles).toHaveBeenCalledOnce();
    expect(menu).toHaveAttribute('aria-expanded', 'false');

    await user.click(menu);
    await user.keyboard('{Tab}{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();

    // The search opens in place of the title, and closing it clears the filter.
    await user.click(screen.getByRole('button', { name: 'Search messages' }));
    expect(header).toHaveClass('cf-chat-header--searching');
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'launch');
    expect(screen.getByText('query=launch')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close search' }));
    expect(screen.getByText('query=')).toBeInTheDocument();
    expect(header).not.toHaveClass('cf-chat-header--searching');
  });

  it('announces intent: pointer over or focus on Chat Files / Create a Drop, or opening the phone menu, calls onPrefetch', async () => {
    const onPrefetch = vi.fn<(part: ChatHeaderPart) => void>();
    const { user } = renderWithConfab(
      <ChatHeader chat={{ id: 'c1', name: 'Design' }} searchQuery="" onSearchChange={() => {}} onOpenFiles={() => {}} onCreateDrop={() => {}} onPrefetch={onPrefetch} />,
    );
    await user.hover(screen.getByRole('button', { name: 'Chat Files' }));
    expect(onPrefetch).toHaveBeenLastCalledWith('files');
    act(() => screen.getByRole('button', { name: 'Create a Drop' }).focus());
    expect(onPrefetch).toHaveBeenLastCalledWith('createDrop');

    onPrefetch.mockClear();
    await user.click(screen.getByRole('button', { name: 'Chat actions' }));
    expect(onPrefetch.mock.calls).toEqual([['files'], ['createDrop']]);
  });
});
