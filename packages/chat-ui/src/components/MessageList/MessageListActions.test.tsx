import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WireMessage } from '@confab/client/protocol';
import { chatId, openChatWithMessages, people } from '../../../test/chatWithMessages';
import { FakeSocket } from '../../../test/fakeSocket';
import { stubMessageListLayout } from '../../../test/layout';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { clientMessage, messageHistory, userRecordOf } from '../../testing/builders';
import { MessageList } from './MessageList';

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

const now = Date.parse('2026-01-05T12:30:00Z');

/** The names of the buttons in a message's action bar (none: no bar). */
function actionsOf(article: HTMLElement): string[] {
  const bar = within(article).queryByRole('group', { name: 'Message actions' });
  return bar === null ? [] : within(bar).getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent ?? '');
}

describe('MessageList: who may react, edit and delete', () => {
  it("offers an admin Edit on their own messages only, and Delete on everyone's", async () => {
    const { article } = await openChatWithMessages({ as: 'alice', admins: [people.alice.id] });
    expect(actionsOf(article('Alice Liddell'))).toEqual(['Add reaction', 'Edit', 'Reply', 'Delete']);
    expect(actionsOf(article('Bob Builder'))).toEqual(['Add reaction', 'Reply', 'Delete']);
    expect(actionsOf(article('Deep Research (Agent)'))).toEqual(['Add reaction', 'Reply', 'Delete']);
  });

  it("offers someone who is not an admin only Reply on others' messages", async () => {
    const { article } = await openChatWithMessages({ as: 'bob', admins: [people.alice.id] });
    expect(actionsOf(article('Bob Builder'))).toEqual(['Add reaction', 'Edit', 'Reply', 'Delete']);
    expect(actionsOf(article('Alice Liddell'))).toEqual(['Add reaction', 'Reply']);
    expect(actionsOf(article('Deep Research (Agent)'))).toEqual(['Add reaction', 'Reply']);
  });

  it('follows the admin list: Delete on others goes when the person stops being an admin', async () => {
    const { article, client } = await openChatWithMessages({ as: 'alice', admins: [people.alice.id] });
    const chat = client.store.getState().currentChat!;
    act(() => client.store.setState({ currentChat: { ...chat, admins: [people.bob.id] } }));
    expect(actionsOf(article('Bob Builder'))).toEqual(['Add reaction', 'Reply']);
    expect(actionsOf(article('Alice Liddell'))).toEqual(['Add reaction', 'Edit', 'Reply', 'Delete']);
  });

  it('offers nothing on a message that is pending, failed or still streaming', () => {
    const { client } = renderWithConfab(
      <MessageList
        now={now}
        messages={[
          clientMessage({ content: 'Sent', author_id: 'user_alice_0001', author_name: 'Sent one' }, { now }),
          clientMessage({ content: 'On my way', status: 'pending', seq: null, client_id: 'local-1', author_id: 'user_alice_0001', author_name: 'Pending one' }, { now }),
          clientMessage({ content: 'Lost', status: 'failed', seq: null, client_id: 'local-2', author_id: 'user_alice_0001', author_name: 'Failed one' }, { now }),
          clientMessage({ content: 'Thinking', status: 'streaming', seq: null, message_id: 'stream:s1', author_id: 'user_alice_0001', author_name: 'Streaming one' }, { now }),
        ]}
      />,
    );
    act(() => client.store.setState({ user: userRecordOf('user_alice_0001', 'alice', 'Alice'), isAuthenticated: true }));
    expect(actionsOf(screen.getByRole('article', { name: 'Sent one' }))).toEqual(['Add reaction', 'Edit', 'Delete']);
    for (const name of ['Pending one', 'Failed one', 'Streaming one']) expect(actionsOf(screen.getByRole('article', { name }))).toEqual([]);
  });
});

describe('MessageList: deleted messages', () => {
  it('does not show a deleted message; reading the last one shown reads the deleted ones after it', () => {
    const history = messageHistory(5, 'c1', now);
    const gone = (index: number) => ({ ...history[index]!, content: '', deleted_at: '2026-01-05 12:29:00.000Z' });
    const onMessagesSeen = vi.fn();
    renderWithConfab(<MessageList messages={[...history.slice(0, 2), gone(2), history[3]!, gone(4)]} onMessagesSeen={onMessagesSeen} now={now} />);
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(within(log).getAllByRole('article')).toHaveLength(3);
    expect(within(log).queryByText('Message 3')).not.toBeInTheDocument();
    expect(within(log).getByText('Message 4')).toBeInTheDocument();
    expect(onMessagesSeen).toHaveBeenLastCalledWith(5);
  });

  it('welcomes the user when every message was deleted', () => {
    const deleted = messageHistory(2, 'c1', now).map((message) => ({ ...message, content: '', deleted_at: '2026-01-05 12:29:00.000Z' }));
    renderWithConfab(<MessageList messages={deleted} userName="Alice" now={now} />);
    expect(screen.getByRole('heading', { name: 'Welcome, Alice!' })).toBeInTheDocument();
  });
});

describe('MessageList: edits and deletions made elsewhere arrive live', () => {
  async function openLive() {
    const chat = await openChatWithMessages({ as: 'alice', WebSocket: FakeSocket });
    act(() => chat.client.realtime.connect());
    await waitFor(() => expect(chat.client.store.getState().connectionState).toBe('connected'));
    const socket = FakeSocket.current!;
    const wire = (message: (typeof chat.stored)['bob'], author: (typeof people)['bob'], changes: Partial<WireMessage>): WireMessage => ({
      message_id: message.id,
      chat_id: chatId,
      author_id: author.id,
      author_name: author.name,
      author_username: author.username,
      content: message.content,
      created_at: message.created,
      message_type: 'regular',
      seq: message.seq,
      is_agent: false,
      ...changes,
    });
    return { ...chat, socket, wire };
  }

  afterEach(() => FakeSocket.current?.close());

  it("shows Bob's edit: the new text, marked (edited)", async () => {
    const { socket, wire, stored, article, client } = await openLive();
    act(() => socket.push({ type: 'message_updated', message: wire(stored.bob, people.bob, { content: 'Shall we ship on Monday?', edited_at: '2026-01-05 12:31:00.000Z' }) }));
    await waitFor(() => expect(within(article('Bob Builder')).getByText('Shall we ship on Monday?')).toBeInTheDocument());
    expect(within(article('Bob Builder')).getByText('(edited)')).toBeInTheDocument();
    client.realtime.close();
  });

  it("takes a message deleted elsewhere out of the list, even while it is being edited here", async () => {
    const { socket, stored, article, log, user, client } = await openLive();
    await user.click(within(article('Alice Liddell')).getByRole('button', { name: 'Edit' }));
    await within(article('Alice Liddell')).findByRole('textbox', { name: 'Edit message' });
    act(() => socket.push({ type: 'message_deleted', chat_id: chatId, message_id: stored.alice.id, seq: stored.alice.seq, deleted_at: '2026-01-05 12:31:00.000Z' }));
    await waitFor(() => expect(within(log).queryByRole('article', { name: 'Alice Liddell' })).not.toBeInTheDocument());
    expect(within(log).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(log).getAllByRole('article')).toHaveLength(2);
    client.realtime.close();
  });
});
