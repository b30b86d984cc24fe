import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeBackend, errorResponse, type FakeBackend } from '@confab/client/testing/fakeBackend';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { ChatOptionsScreen } from './ChatOptionsScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };
const bob = { id: 'user_bob_000001', username: 'bob', email: 'bob@example.com', name: 'Bob Builder', password: 'builder123' };
const chatId = 'chat_design_001';

/** Chat Options for Alice, who is not an admin of the chat (Bob is), with the chat list loaded. */
async function setup(options: { muted?: boolean; configure?: (backend: FakeBackend) => void } = {}) {
  const backend = createFakeBackend({ users: [alice, bob] });
  const chat = backend.addChat({ id: chatId, name: 'Design', participants: [bob.id, alice.id], admins: [bob.id], muted_by: options.muted ? [alice.id] : [] });
  options.configure?.(backend);
  const result = renderWithConfab(<ChatOptionsScreen chatId={chatId} />, { backend });
  await act(async () => {
    await result.client.login('alice', 'wonderland');
    await result.client.chats.list();
  });
  await screen.findByRole('heading', { name: 'Notifications' });
  return { ...result, chat };
}

describe('Chat Options mute', () => {
  it('lets any participant mute the chat for themself', async () => {
    const { user, chat, client } = await setup();
    const mute = screen.getByRole('switch', { name: 'Mute this chat' });
    expect(mute).toHaveAccessibleDescription('No unread count and no notifications, except when someone mentions you.');
    // Alice is no admin: the chat's settings are locked, her own mute is not.
    expect(screen.getByRole('note')).toHaveTextContent('Only chat admins can change these settings.');
    expect(mute).toBeEnabled();
    expect(mute).not.toBeChecked();
    await user.click(mute);
    await waitFor(() => expect(chat.muted_by).toEqual([alice.id]));
    await waitFor(() => expect(mute).toBeEnabled());
    expect(mute).toBeChecked();
    expect(client.store.getState().chats.find((listed) => listed.id === chatId)?.muted).toBe(true);
    await user.click(mute);
    await waitFor(() => expect(chat.muted_by).toEqual([]));
    await waitFor(() => expect(mute).not.toBeChecked());
  });

  it('shows a muted chat as muted', async () => {
    await setup({ muted: true });
    expect(screen.getByRole('switch', { name: 'Mute this chat' })).toBeChecked();
  });

  it("says 'Failed to change mute.' and puts the switch back", async () => {
    const { user } = await setup({ configure: (backend) => backend.override(`POST /api/chats/${chatId}/mute`, () => errorResponse(500, 'boom')) });
    const mute = screen.getByRole('switch', { name: 'Mute this chat' });
    await user.click(mute);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to change mute.');
    expect(mute).not.toBeChecked();
    expect(mute).toBeEnabled();
  });
});
