import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeBackend, errorResponse, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { ChatOptionsScreen } from './ChatOptionsScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };
const chatId = 'chat_design_001';

async function setup(options: { notifyAll?: boolean; configure?: (backend: FakeBackend) => void } = {}) {
  const backend = createFakeBackend({ users: [alice, bob] });
  const chat = backend.addChat({ id: chatId, name: 'Design', participants: [bob.id, alice.id], admins: [bob.id], notify_all_by: options.notifyAll ? [alice.id] : [] });
  options.configure?.(backend);
  const result = renderWithConfab(<ChatOptionsScreen chatId={chatId} />, { backend });
  await act(async () => {
    await result.client.login('alice', 'wonderland');
    await result.client.chats.list();
  });
  const group = await screen.findByRole('group', { name: 'Notify me about' });
  return { ...result, chat, group };
}

describe('Chat Options notification level', () => {
  it('lets any participant choose all messages or mentions and replies, beside Mute', async () => {
    const { user, chat, client, group } = await setup();
    const all = within(group).getByRole('radio', { name: 'All messages' });
    const mentions = within(group).getByRole('radio', { name: 'Mentions and replies' });
    expect(mentions).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Mute this chat' })).toBeInTheDocument();
    await user.click(all);
    await waitFor(() => expect(chat.notify_all_by).toEqual([alice.id]));
    await waitFor(() => expect(group).toBeEnabled());
    expect(all).toBeChecked();
    expect(client.store.getState().chats.find((listed) => listed.id === chatId)?.notify_level).toBe('all');
    // The keyboard moves within the group too.
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(chat.notify_all_by).toEqual([]));
    await waitFor(() => expect(mentions).toBeChecked());
  });

  it('shows a chat set to all messages as such', async () => {
    const { group } = await setup({ notifyAll: true });
    expect(within(group).getByRole('radio', { name: 'All messages' })).toBeChecked();
  });

  it("says 'Failed to change notifications.' and puts the choice back", async () => {
    const { user, group } = await setup({ configure: (backend) => backend.override(`POST /api/chats/${chatId}/notifications`, () => errorResponse(500, 'boom')) });
    await user.click(within(group).getByRole('radio', { name: 'All messages' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to change notifications.');
    expect(within(group).getByRole('radio', { name: 'Mentions and replies' })).toBeChecked();
  });
});
