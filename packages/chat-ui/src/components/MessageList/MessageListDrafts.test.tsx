import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubMessageListLayout } from '../../../test/layout';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { messageHistory, userRecordOf } from '../../testing/builders';
import { MessageList } from './MessageList';

beforeEach(() => stubMessageListLayout(600));
afterEach(() => vi.restoreAllMocks());

const now = Date.parse('2026-01-05T12:30:00Z');

describe('MessageList: an open editor out of view', () => {
  it('keeps the draft (and the editor) while its message is scrolled out of the window and back', async () => {
    const user = userEvent.setup();
    // Signed in as Bob, who wrote every third message: he edits his latest one.
    const history = messageHistory(200, 'c1', now);
    const { client } = renderWithConfab(<MessageList messages={history} now={now} />);
    act(() => client.store.setState({ user: userRecordOf('user00000000002', 'bob', 'Bob Builder'), isAuthenticated: true }));
    const log = screen.getByRole('log', { name: 'Messages' });
    const own = within(log).getAllByRole('article', { name: 'Bob Builder' }).at(-1)!;
    const text = own.querySelector('.cf-message__body')!.textContent!;
    await user.click(within(own).getByRole('button', { name: 'Edit' }));
    const field = await screen.findByLabelText('Edit message');
    await user.type(field, ' (draft)');

    // To the top: the window moves to the first messages, the open editor stays, draft and all.
    log.scrollTop = 0;
    fireEvent.scroll(log);
    expect(await within(log).findByText('Message 2')).toBeInTheDocument();
    expect(within(log).queryByText('Message 150')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Edit message')).toHaveValue(`${text} (draft)`);

    // Back at the bottom: the same editor, still open with the draft.
    log.scrollTop = log.scrollHeight;
    fireEvent.scroll(log);
    expect(await within(log).findByText('Message 200')).toBeInTheDocument();
    expect(screen.getAllByLabelText('Edit message')).toHaveLength(1);
    expect(screen.getByLabelText('Edit message')).toHaveValue(`${text} (draft)`);

    // Closed, it is an ordinary row again: out of view, out of the DOM.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    log.scrollTop = 0;
    fireEvent.scroll(log);
    expect(await within(log).findByText('Message 2')).toBeInTheDocument();
    expect(within(log).queryByText(text)).not.toBeInTheDocument();
  });
});
