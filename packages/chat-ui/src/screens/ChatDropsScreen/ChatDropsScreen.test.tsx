import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { ChatDropsScreen } from './ChatDropsScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

async function setup(prepare: (backend: FakeBackend) => void, chatId = 'chat_design_01') {
  const backend = createFakeBackend({ users: [alice] });
  prepare(backend);
  const result = renderWithConfab(<ChatDropsScreen chatId={chatId} />, { backend, documentTitle: true });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

describe('ChatDropsScreen', () => {
  it('shows the chat with its drops as cards, and the title "<chat> - Drops - Confab"', async () => {
    await setup((backend) => {
      backend.addChat({ id: 'chat_design_01', name: 'Design', participants: ['someone_else'] });
      backend.addDrop({ title: 'Colour tokens', chat_id: 'chat_design_01', chat_name: 'Design' });
      backend.addDrop({ title: 'Type scale', chat_id: 'chat_design_01', chat_name: 'Design' });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Design Drops' })).toBeInTheDocument();
    expect(document.title).toBe('Design - Drops - Confab');
    expect(screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent)).toEqual(['Type scale', 'Colour tokens']);
    expect(screen.getByText('2 drops · 0 followers')).toBeInTheDocument();
    // Not a participant: nothing to create from here.
    expect(screen.queryByRole('button', { name: 'Create Drop' })).not.toBeInTheDocument();
  });

  it('follows and unfollows the chat', async () => {
    const { user, backend } = await setup((backend) => {
      backend.addDrop({ title: 'Colour tokens', chat_id: 'chat_design_01', chat_name: 'Design' });
    });
    await user.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('button', { name: 'Following' })).toBeInTheDocument();
    expect(screen.getByText('1 drop · 1 follower')).toBeInTheDocument();
    expect(backend.dropData.follows.has('chat_design_01')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Following' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(backend.dropData.follows.has('chat_design_01')).toBe(false);
  });

  it("says 'No drops yet' with the @drops hint, and Create Drop opens the modal", async () => {
    const { user, navigate } = await setup((backend) => {
      backend.addChat({ id: 'chat_design_01', name: 'Design', participants: [alice.id] });
    });
    expect(await screen.findByRole('heading', { name: 'No drops yet' })).toBeInTheDocument();
    expect(screen.getByText("Say '@drops create a guide about our discussion' in the chat to make one.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to chat' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Drop' }));
    const dialog = screen.getByRole('dialog', { name: 'Create a Drop' });
    expect(dialog).toHaveTextContent('From Design');
    await user.type(within(dialog).getByLabelText('Title'), 'First notes');
    await user.type(within(dialog).getByLabelText('Content'), 'What we decided.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Drop' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/drops/first-notes'));
  });

  it('says when there is no such chat', async () => {
    await setup(() => {}, 'chat_missing_01');
    expect(await screen.findByRole('heading', { level: 2, name: 'Chat not found' })).toBeInTheDocument();
  });
});
