import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { CreateDropModal } from './CreateDropModal';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

async function setup() {
  const backend = createFakeBackend({ users: [alice] });
  backend.addChat({ id: 'chat_design_01', name: 'Design', participants: [alice.id] });
  const onClose = vi.fn();
  const result = renderWithConfab(
    <>
      <button type="button">Opener</button>
      <CreateDropModal chatId="chat_design_01" chatName="Design" onClose={onClose} />
    </>,
    { backend },
  );
  await act(() => result.client.login('alice', 'wonderland'));
  const dialog = screen.getByRole('dialog', { name: 'Create a Drop' });
  return { ...result, onClose, dialog, title: within(dialog).getByLabelText('Title'), content: within(dialog).getByLabelText('Content') };
}

describe('CreateDropModal', () => {
  it('counts title and content characters against 100 and 2000 (docs/PRODUCT.md §9)', async () => {
    const { user, title, content } = await setup();
    expect(title).toHaveFocus();
    expect(title).toHaveAccessibleDescription('0/100');
    expect(content).toHaveAccessibleDescription('0/2000');
    await user.type(title, 'Launch plan');
    expect(title).toHaveAccessibleDescription('11/100');
    await user.type(content, 'We ship.');
    expect(content).toHaveAccessibleDescription('8/2000');
    expect(title).toHaveAttribute('maxLength', '100');
    expect(content).toHaveAttribute('maxLength', '2000');
  });

  it('says before publishing that anyone signed in on the server can read the drop, even from a private chat', async () => {
    const { dialog } = await setup();
    const note = 'Anyone signed in on this server can read a drop, even one published from a private chat.';
    expect(within(dialog).getByText(note)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Create Drop' })).toHaveAccessibleDescription(note);
  });

  it('checks title and content after trimming, without a request (docs/PRODUCT.md §5)', async () => {
    const { user, dialog, title, content, backend } = await setup();
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter a title');
    await user.type(title, '   ');
    await user.type(content, 'Body');
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter a title');
    await user.type(title, 'Title');
    await user.clear(content);
    await user.type(content, '  ');
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter some content');
    expect(backend.requests.filter((request) => request.route === 'POST /api/drops')).toHaveLength(0);
  });

  it("says 'Creating...' while it publishes, then opens the new drop", async () => {
    const { user, dialog, title, content, backend, navigate } = await setup();
    await user.type(title, '  Launch plan ');
    await user.type(content, ' We ship on Monday. #launch ');
    const release = backend.hold();
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    expect(within(dialog).getByRole('button', { name: 'Creating...' })).toHaveAttribute('aria-disabled', 'true');
    release();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/drops/launch-plan'));
    expect(backend.requests.find((request) => request.route === 'POST /api/drops')?.body).toEqual({ chat_id: 'chat_design_01', title: 'Launch plan', content: 'We ship on Monday. #launch' });
  });

  it('shows a failure in the dialog and keeps what was typed', async () => {
    const { user, dialog, title, content, backend, navigate } = await setup();
    backend.override('POST /api/drops', () => errorResponse(404, 'Chat not found'));
    await user.type(title, 'Launch plan');
    await user.type(content, 'Body');
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create drop: Chat not found');
    expect(title).toHaveValue('Launch plan');
    expect(within(dialog).getByRole('button', { name: 'Create Drop' })).not.toHaveAttribute('aria-disabled');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('closes on Escape, a backdrop click, Cancel and ×; Tab stays inside', async () => {
    const { user, dialog, onClose, title } = await setup();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(dialog.parentElement!);
    expect(onClose).toHaveBeenCalledTimes(2);
    fireEvent.mouseDown(dialog);
    expect(onClose).toHaveBeenCalledTimes(2);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(4);
    // From the last control Tab wraps to the first, never to the page behind.
    within(dialog).getByRole('button', { name: 'Create Drop' }).focus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Create Drop' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Opener', hidden: true })).not.toHaveFocus();
    expect(title).not.toHaveFocus();
  });
});
