import { act, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openChatWithMessages, people, tabTo } from '../../../test/chatWithMessages';
import { stubMessageListLayout } from '../../../test/layout';
import { deleteGone } from './DeleteMessage';

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

const deletions = (backend: { requests: Array<{ route: string }> }) =>
  backend.requests.filter((request) => request.route.startsWith('DELETE /api/collections/messages/records/')).map((request) => request.route);

describe('deleting a message', () => {
  it('asks first (Cancel focused), then deletes: the message leaves the list and the focus goes to the list', async () => {
    const { user, log, article, backend, stored } = await openChatWithMessages({ admins: [people.bob.id] });
    await user.click(within(article('Alice Liddell')).getByRole('button', { name: 'Delete' }));
    const question = await within(article('Alice Liddell')).findByRole('group', { name: 'Delete this message? This cannot be undone.' });
    // Her own message: nothing about whose it is.
    expect(question).not.toHaveAccessibleDescription();
    await waitFor(() => expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.click(within(question).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(within(log).queryByText('On Friday')).not.toBeInTheDocument());
    expect(within(log).queryByRole('article', { name: 'Alice Liddell' })).not.toBeInTheDocument();
    expect(within(log).getAllByRole('article')).toHaveLength(2);
    expect(deletions(backend)).toEqual([`DELETE /api/collections/messages/records/${stored.alice.id}`]);
    expect(log).toHaveFocus();
  });

  it('from the keyboard: Tab to Delete, Enter asks, Escape (or Cancel) keeps the message and returns to Delete', async () => {
    const { user, log, article, backend } = await openChatWithMessages();
    const deleteButton = () => within(article('Alice Liddell')).getByRole('button', { name: 'Delete' });
    act(() => log.focus());
    await tabTo(user, deleteButton);
    await user.keyboard('{Enter}');
    const question = await within(article('Alice Liddell')).findByRole('group', { name: /^Delete this message\?/ });
    await waitFor(() => expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(within(article('Alice Liddell')).queryByRole('group', { name: /^Delete this message\?/ })).not.toBeInTheDocument();
    await waitFor(() => expect(deleteButton()).toHaveFocus());

    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(article('Alice Liddell')).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(deleteButton()).toHaveFocus());
    expect(within(log).getByText('On Friday')).toBeInTheDocument();
    expect(deletions(backend)).toEqual([]);
  });

  it("lets an admin delete someone else's message, saying whose it is", async () => {
    const { user, log, article, stored, backend } = await openChatWithMessages();
    const bobs = article('Bob Builder');
    expect(within(bobs).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.click(within(bobs).getByRole('button', { name: 'Delete' }));
    const question = await within(bobs).findByRole('group', { name: 'Delete this message? This cannot be undone.' });
    expect(question).toHaveAccessibleDescription('It is Bob Builder’s message: you can delete it as an admin of this chat.');
    await user.click(within(question).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(log).queryByText('Shall we ship?')).not.toBeInTheDocument());
    expect(deletions(backend)).toEqual([`DELETE /api/collections/messages/records/${stored.bob.id}`]);
  });

  it('shows a failure in the question, with the buttons back', async () => {
    const { user, article, backend, stored } = await openChatWithMessages();
    const route = `DELETE /api/collections/messages/records/${stored.bob.id}`;
    backend.override(route, () => new Response(JSON.stringify({ status: 404, message: "The requested resource wasn't found.", data: {} }), { status: 404 }));
    const bobs = article('Bob Builder');
    await user.click(within(bobs).getByRole('button', { name: 'Delete' }));
    const question = await within(bobs).findByRole('group', { name: /^Delete this message\?/ });
    const release = backend.hold();
    await user.click(within(question).getByRole('button', { name: 'Delete' }));
    expect(within(question).getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    expect(within(question).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    release();
    expect(await within(question).findByRole('alert')).toHaveTextContent(deleteGone);
    expect(within(question).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await waitFor(() => expect(within(question).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    expect(within(bobs).getByText('Shall we ship?')).toBeInTheDocument();
  });
});
