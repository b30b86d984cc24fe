import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openChatWithMessages, tabTo } from '../../../test/chatWithMessages';
import { stubMessageListLayout } from '../../../test/layout';
import { editGone } from './MessageEditor';

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

const patches = (backend: { requests: Array<{ route: string; body: Record<string, unknown> }> }) =>
  backend.requests.filter((request) => request.route.startsWith('PATCH /api/collections/messages/records/'));

describe('editing a message', () => {
  it('from the keyboard alone: Tab to the message, Edit, type, Enter saves; the message reads (edited)', async () => {
    const { user, log, article, backend, stored } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    act(() => log.focus());
    await tabTo(user, () => within(own()).getByRole('button', { name: 'Edit' }));
    await user.keyboard('{Enter}');

    const field = await within(own()).findByRole('textbox', { name: 'Edit message' });
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveValue('On Friday');
    expect(field).toHaveAccessibleDescription('Enter to save, Shift+Enter for a new line, Escape to cancel');
    await user.keyboard(' or Saturday{Shift>}{Enter}{/Shift}at noon');
    expect(field).toHaveValue('On Friday or Saturday\nat noon');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(within(own()).queryByRole('textbox')).not.toBeInTheDocument());
    expect(patches(backend)).toEqual([{ route: `PATCH /api/collections/messages/records/${stored.alice.id}`, body: { content: 'On Friday or Saturday\nat noon' } }]);
    expect(within(own()).getByText(/^On Friday or Saturday/)).toBeInTheDocument();
    expect(within(own()).getByText('(edited)')).toBeInTheDocument();
    // Back where the edit started.
    await waitFor(() => expect(within(own()).getByRole('button', { name: 'Edit' })).toHaveFocus());
  });

  it('Escape cancels, keeping the text as it was, and gives the focus back to Edit', async () => {
    const { user, article, backend } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    const field = await within(own()).findByRole('textbox', { name: 'Edit message' });
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard(' (maybe)');
    await user.keyboard('{Escape}');
    expect(within(own()).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(own()).getByText('On Friday')).toBeInTheDocument();
    await waitFor(() => expect(within(own()).getByRole('button', { name: 'Edit' })).toHaveFocus());
    expect(patches(backend)).toHaveLength(0);
  });

  it('Save and Cancel buttons; the controls are disabled while it saves', async () => {
    const { user, article, backend } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    await user.click(await within(own()).findByRole('button', { name: 'Cancel' }));
    expect(within(own()).queryByRole('textbox')).not.toBeInTheDocument();

    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    const field = await within(own()).findByRole('textbox', { name: 'Edit message' });
    await user.clear(field);
    await user.type(field, 'On Monday');
    const release = backend.hold();
    await user.click(within(own()).getByRole('button', { name: 'Save' }));
    expect(field).toBeDisabled();
    expect(within(own()).getByRole('button', { name: 'Saving...' })).toBeDisabled();
    expect(within(own()).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    release();
    // The body's HTML is rendered afresh as it settles: look it up each time.
    await waitFor(() => expect(within(own()).getByText('On Monday')).toBeInTheDocument());
    expect(within(own()).getByText('(edited)')).toBeInTheDocument();
  });

  it('refuses an empty text with the client’s message, sending nothing', async () => {
    const { user, article, backend } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    const field = await within(own()).findByRole('textbox', { name: 'Edit message' });
    await user.clear(field);
    await user.type(field, '   {Enter}');
    expect(within(own()).getByRole('alert')).toHaveTextContent('Please enter a message');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(patches(backend)).toHaveLength(0);
  });

  it('shows a failure in place and keeps the text, to try again', async () => {
    const { user, article, backend, stored } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    const route = `PATCH /api/collections/messages/records/${stored.alice.id}`;
    backend.override(route, () => new Response(JSON.stringify({ status: 500, message: 'The server is having a bad day.', data: {} }), { status: 500 }));
    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    const field = await within(own()).findByRole('textbox', { name: 'Edit message' });
    await user.type(field, '!{Enter}');
    expect(await within(own()).findByRole('alert')).toHaveTextContent('The server is having a bad day.');
    expect(field).toHaveValue('On Friday!');
    await waitFor(() => expect(field).toHaveFocus());
    expect(within(own()).queryByText('(edited)')).not.toBeInTheDocument();

    // Gone meanwhile (deleted elsewhere): the server no longer knows it as Alice's.
    backend.override(route, () => new Response(JSON.stringify({ status: 404, message: "The requested resource wasn't found.", data: {} }), { status: 404 }));
    await user.click(within(own()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(own()).getByRole('alert')).toHaveTextContent(editGone));
  });

  it('closes without a request when nothing changed', async () => {
    const { user, article, backend } = await openChatWithMessages();
    const own = () => article('Alice Liddell');
    await user.click(within(own()).getByRole('button', { name: 'Edit' }));
    await within(own()).findByRole('textbox', { name: 'Edit message' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(own()).queryByRole('textbox')).not.toBeInTheDocument());
    expect(patches(backend)).toHaveLength(0);
    expect(screen.queryByText('(edited)')).not.toBeInTheDocument();
  });
});
