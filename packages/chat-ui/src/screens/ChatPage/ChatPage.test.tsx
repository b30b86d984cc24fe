import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestClient, renderWithConfab } from '../../../test/renderWithConfab';
import { ConfabProvider } from '../../provider/ConfabProvider';
import { stubMessageListLayout } from '../../../test/layout';
import { clientMessage } from '../../testing/builders';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { LazyChatFilesPanel, LazyCreateDropModal } from '../../internal/lazyParts';
import { ChatPage } from './ChatPage';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

async function openChat(messageCount: number, chatId = 'chat_design_001', documentTitle = true) {
  const backend = createFakeBackend({ users: [alice, bob] });
  backend.addChat({ id: 'chat_design_001', name: 'Design', description: 'Weekly sync', participants: [alice.id, bob.id] });
  backend.addMessages('chat_design_001', messageCount, [bob.id, alice.id]);
  const result = renderWithConfab(<ChatPage chatId={chatId} />, { backend, documentTitle });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

/** The upload zone's code loads on demand when it first opens: under a loaded machine that takes longer than findBy's default second. */
const uploadZone = () => screen.findByLabelText('Choose files to upload', {}, { timeout: 5_000 });

describe('ChatPage', () => {
  it('opens the chat: header, latest messages and the document title', async () => {
    await openChat(3);
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    const log = await screen.findByRole('log', { name: 'Messages' });
    expect(within(log).getByText('Message 3')).toBeInTheDocument();
    expect(within(log).getAllByRole('article', { name: 'Bob Builder' })).toHaveLength(2);
    expect(document.title).toBe('Design - Confab');
  });

  it('opens from what client.preloadRoute asked for on a full load: the chat and its page requested once', async () => {
    const backend = createFakeBackend({ users: [alice, bob] });
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id, bob.id] });
    backend.addMessages('chat_design_001', 3, [bob.id, alice.id]);
    const client = createTestClient(backend);
    await client.login('alice', 'wonderland');
    client.preloadRoute('/chat/chat_design_001');
    render(
      <ConfabProvider client={client} navigate={vi.fn()}>
        <ChatPage chatId="chat_design_001" />
      </ConfabProvider>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    expect(await within(screen.getByRole('log', { name: 'Messages' })).findByText('Message 3')).toBeInTheDocument();
    const count = (route: string) => backend.requests.filter((request) => request.route === route).length;
    expect(count('GET /api/collections/messages/records')).toBe(1);
    expect(count('GET /api/collections/chats/records/chat_design_001')).toBe(1);
  });

  it("gives the host's title back on unmount, and leaves it alone without the provider's documentTitle", async () => {
    document.title = 'Host page';
    const { unmount } = await openChat(3);
    await waitFor(() => expect(document.title).toBe('Design - Confab'));
    unmount();
    expect(document.title).toBe('Host page');

    const second = await openChat(3, 'chat_design_001', false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Design' })).toBeInTheDocument();
    expect(document.title).toBe('Host page');
    second.unmount();
  });

  it('welcomes the user in an empty chat', async () => {
    await openChat(0);
    expect(await screen.findByRole('heading', { name: 'Welcome, Alice Liddell!' })).toBeInTheDocument();
  });

  it('offers Invite User to admins only (docs/PRODUCT.md §6)', async () => {
    const { client } = await openChat(0);
    expect(await screen.findByRole('button', { name: 'Invite User' })).toBeEnabled();
    const chat = client.store.getState().currentChat;
    act(() => client.store.setState({ currentChat: chat === null ? null : { ...chat, admins: [bob.id] } }));
    const invite = screen.getByRole('button', { name: 'Invite User' });
    expect(invite).toBeDisabled();
    expect(invite).toHaveAccessibleDescription('Only chat admins can invite people.');
  });

  it('shows a clear not-found state for an unknown chat id', async () => {
    const { user, navigate } = await openChat(0, 'chat_missing_01');
    expect(await screen.findByRole('alert')).toHaveTextContent('Chat not found');
    await user.click(screen.getByRole('button', { name: 'Back to chats' }));
    expect(navigate).toHaveBeenCalledWith('/chat');
  });

  it('loads older pages when scrolled near the top', async () => {
    const { backend } = await openChat(120);
    const log = await screen.findByRole('log', { name: 'Messages' });
    await screen.findByText('Message 120');
    const before = backend.requests.filter((request) => request.route === 'GET /api/collections/messages/records').length;
    act(() => {
      log.scrollTop = 0;
      fireEvent.scroll(log);
    });
    await waitFor(() =>
      expect(backend.requests.filter((request) => request.route === 'GET /api/collections/messages/records').length).toBe(before + 1),
    );
    await waitFor(() => expect(log.scrollTop).toBeGreaterThan(1000));
  });

  it('sends through client.messages (optimistic message shown); Retry retries a failed one', async () => {
    const { user, client } = await openChat(1);
    await screen.findByText('Message 1');
    const retry = vi.spyOn(client.messages, 'retry');
    await user.type(screen.getByRole('combobox', { name: 'Message' }), 'Hello Bob{Enter}');
    expect(await screen.findByText('Hello Bob')).toBeInTheDocument();
    expect(client.store.getState().messages.at(-1)).toMatchObject({ content: 'Hello Bob', author_id: alice.id, seq: null });

    // Without a socket the client fails the send; either way, drive the failed state through the store.
    act(() =>
      client.store.setState((state) => ({ messages: state.messages.map((message) => (message.status === 'pending' ? { ...message, status: 'failed' as const } : message)) })),
    );
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('filters the loaded messages with the header search', async () => {
    const { user } = await openChat(12);
    await screen.findByText('Message 12');
    await user.type(screen.getByRole('searchbox', { name: 'Search messages' }), 'Message 1');
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(within(log).getAllByRole('article')).toHaveLength(4); // 1, 10, 11, 12
  });

  it('flashes the title while hidden and a message arrives', async () => {
    const { client } = await openChat(1);
    await screen.findByText('Message 1');
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() =>
      client.store.setState((state) => ({
        messages: [...state.messages, clientMessage({ content: 'Ping', chat_id: 'chat_design_001', author_id: bob.id, author_name: 'Bob Builder' })],
      })),
    );
    expect(document.title).toBe('(1) New messages!');
  });

  it('shows the connection state in the header', async () => {
    const { client } = await openChat(1);
    await screen.findByText('Message 1');
    act(() => client.store.setState({ connectionState: 'closed', isConnected: false }));
    expect(screen.getByText('Connection Lost - Messages may not send')).toBeInTheDocument();
    act(() => client.store.setState({ connectionState: 'connected', isConnected: true }));
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });

  it('opens its own files panel from Chat Files, which lists files uploaded meanwhile; closing returns focus', async () => {
    const { user } = await openChat(1);
    await screen.findByText('Message 1');
    await user.click(screen.getByRole('button', { name: 'Upload files' }));
    await user.upload(await uploadZone(), new File(['a,b'], 'table.csv'));
    expect(await screen.findByRole('list', { name: 'Recently uploaded' })).toHaveTextContent('table.csv');

    const chatFiles = screen.getByRole('button', { name: 'Chat Files' });
    await user.click(chatFiles);
    // The panel's code loads on demand (Suspense), so it arrives a moment after the click.
    const panel = await screen.findByRole('dialog', { name: 'Chat files' });
    expect(await within(panel).findByRole('button', { name: 'table.csv' })).toBeInTheDocument();
    expect(within(panel).getByText('Alice Liddell')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Chat files' })).not.toBeInTheDocument();
    expect(chatFiles).toHaveFocus();
  });

  it("starts each chat with its own draft and upload list, not the previous chat's", async () => {
    const backend = createFakeBackend({ users: [alice, bob] });
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id, bob.id] });
    backend.addChat({ id: 'chat_random_01', name: 'Random', participants: [alice.id, bob.id] });
    const { user, client, rerender } = renderWithConfab(<ChatPage chatId="chat_design_001" />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    await screen.findByRole('heading', { level: 1, name: 'Design' });
    await user.type(screen.getByLabelText('Message'), 'half-written thought');
    await user.click(screen.getByRole('button', { name: 'Upload files' }));
    await user.upload(await uploadZone(), new File(['a,b'], 'design.csv'));
    expect(await screen.findByRole('list', { name: 'Recently uploaded' })).toHaveTextContent('design.csv');

    rerender(<ChatPage chatId="chat_random_01" />);
    await screen.findByRole('heading', { level: 1, name: 'Random' });
    expect(screen.getByLabelText('Message')).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Recently uploaded' })).not.toBeInTheDocument();
  });

  it('starts loading the files panel and the Create a Drop modal when their buttons are pointed at or focused', async () => {
    const preloadFiles = vi.spyOn(LazyChatFilesPanel, 'preload');
    const preloadDrop = vi.spyOn(LazyCreateDropModal, 'preload');
    const { user } = await openChat(1);
    const chatFiles = await screen.findByRole('button', { name: 'Chat Files' });
    expect(preloadFiles).not.toHaveBeenCalled();
    await user.hover(chatFiles);
    expect(preloadFiles).toHaveBeenCalled();
    act(() => screen.getByRole('button', { name: 'Create a Drop' }).focus());
    expect(preloadDrop).toHaveBeenCalled();
    // Loaded ahead, the panel opens with its content and no loading status of its own code.
    await user.click(chatFiles);
    expect(await screen.findByRole('dialog', { name: 'Chat files' })).toBeInTheDocument();
  });

  it('leaves Chat Files to the host when it passes onOpenFiles', async () => {
    const backend = createFakeBackend({ users: [alice] });
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id] });
    const onOpenFiles = vi.fn();
    const { user, client } = renderWithConfab(<ChatPage chatId="chat_design_001" onOpenFiles={onOpenFiles} />, { backend });
    await act(() => client.login('alice', 'wonderland'));
    const preloadFiles = vi.spyOn(LazyChatFilesPanel, 'preload');
    await user.click(await screen.findByRole('button', { name: 'Chat Files' }));
    expect(onOpenFiles).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The host's own panel: the page's is not even loaded.
    expect(preloadFiles).not.toHaveBeenCalled();
  });
});

describe('ChatPage drops', () => {
  it('opens the Create a Drop modal from the header; publishing opens the new drop, Escape closes it', async () => {
    const { user, navigate } = await openChat(1);
    const createDrop = await screen.findByRole('button', { name: 'Create a Drop' });
    await user.click(createDrop);
    const dialog = await screen.findByRole('dialog', { name: 'Create a Drop' });
    expect(dialog).toHaveTextContent('From Design');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(createDrop).toHaveFocus();

    await user.click(createDrop);
    const reopened = await screen.findByRole('dialog', { name: 'Create a Drop' });
    await user.type(within(reopened).getByLabelText('Title'), 'Weekly sync notes');
    await user.type(within(reopened).getByLabelText('Content'), 'We agreed on the plan.');
    await user.click(within(reopened).getByRole('button', { name: 'Create Drop' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/drops/weekly-sync-notes'));
  });

  it('View Drops opens the chat drops view', async () => {
    const { user, navigate } = await openChat(0);
    await user.click(await screen.findByRole('button', { name: 'View Drops' }));
    expect(navigate).toHaveBeenCalledWith('/chat/chat_design_001/drops');
  });
});

describe('ChatPage agent activity', () => {
  const deep = { id: 'agentdeep000001', username: 'deep', name: 'Deep Research' };

  it('shows a streamed reply growing in place, marked as an agent that is typing, then its final text', async () => {
    const { client } = await openChat(1);
    await screen.findByText('Message 1');
    const placeholder = clientMessage({
      content: 'Looking',
      chat_id: 'chat_design_001',
      message_id: 'stream:s1',
      author_id: deep.id,
      author_name: deep.name,
      author_username: deep.username,
      is_agent: true,
      seq: null,
      status: 'streaming',
      stream_id: 's1',
    });
    act(() => client.store.setState((state) => ({ messages: [...state.messages, placeholder] })));
    const reply = await screen.findByRole('article', { name: 'Deep Research (Agent)' });
    expect(reply).toHaveAttribute('aria-busy', 'true');
    expect(within(reply).getByText('Agent')).toBeInTheDocument();
    expect(reply).toHaveTextContent('typing...');
    act(() =>
      client.store.setState((state) => ({
        messages: state.messages.map((message) => (message.message_id === 'stream:s1' ? { ...message, content: 'Looking into it' } : message)),
      })),
    );
    expect(screen.getByRole('article', { name: 'Deep Research (Agent)' })).toHaveTextContent('Looking into it');
    act(() =>
      client.store.setState((state) => ({
        messages: [
          ...state.messages.filter((message) => message.message_id !== 'stream:s1'),
          { ...placeholder, message_id: 'final0000000001', seq: 2, status: 'sent', content: 'Looking into it: done.' },
        ],
      })),
    );
    const final = screen.getByRole('article', { name: 'Deep Research (Agent)' });
    expect(final).not.toHaveAttribute('aria-busy');
    expect(final).not.toHaveTextContent('typing...');
    expect(final).toHaveTextContent('Looking into it: done.');
  });

  it("shows agents' status lines under the list", async () => {
    const { client } = await openChat(1);
    await screen.findByText('Message 1');
    const activity = screen.getByRole('status', { name: 'Agent activity' });
    expect(activity).toBeEmptyDOMElement();
    act(() => client.store.setState({ agentStatuses: [{ chat_id: 'chat_design_001', agent: deep, text: 'is searching…' }] }));
    expect(activity).toHaveTextContent('@deep is searching…');
    act(() => client.store.setState({ agentStatuses: [] }));
    expect(activity).toBeEmptyDOMElement();
  });

  it('shows a notice as a system message after the message it is about', async () => {
    const { client } = await openChat(2);
    await screen.findByText('Message 2');
    const first = client.store.getState().messages[0];
    act(() =>
      client.store.setState({
        agentNotices: [
          {
            id: 'n1',
            chat_id: 'chat_design_001',
            message_id: first?.message_id ?? '',
            agent_username: 'echo',
            reason: 'offline',
            text: '@echo is offline. Your message will be delivered if it reconnects within 10 minutes.',
            received_at: new Date().toISOString(),
          },
        ],
      }),
    );
    const log = screen.getByRole('log', { name: 'Messages' });
    const notice = within(log).getByRole('status');
    expect(notice).toHaveTextContent('@echo is offline. Your message will be delivered if it reconnects within 10 minutes.');
    expect(notice).toHaveTextContent('Only you can see this');
    const rows = Array.from(log.querySelectorAll('.cf-message-list__row')).map((row) => row.textContent ?? '');
    expect(rows.findIndex((text) => text.includes('is offline'))).toBe(1);
  });

  it('sends the first message of a chat started from the agent search once, after opening it', async () => {
    const backend = createFakeBackend({ users: [alice] });
    backend.addChat({ id: 'chat_design_001', name: 'Design', participants: [alice.id] });
    const onSent = vi.fn();
    const { client, rerender } = renderWithConfab(
      <ChatPage chatId="chat_design_001" initialMessage="@drops create a summary drop about our recent discussion" onInitialMessageSent={onSent} />,
      { backend },
    );
    const send = vi.spyOn(client.messages, 'send');
    await act(() => client.login('alice', 'wonderland'));
    await waitFor(() => expect(send).toHaveBeenCalledWith('chat_design_001', '@drops create a summary drop about our recent discussion'));
    expect(onSent).toHaveBeenCalledOnce();
    rerender(<ChatPage chatId="chat_design_001" initialMessage="@drops create a summary drop about our recent discussion" onInitialMessageSent={onSent} />);
    expect(send).toHaveBeenCalledOnce();
  });
});
