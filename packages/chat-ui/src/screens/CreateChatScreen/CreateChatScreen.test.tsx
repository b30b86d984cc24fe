import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '../../testing/fakeBackend';
import { CreateChatScreen } from './CreateChatScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

async function setup() {
  const backend = createFakeBackend({ users: [alice] });
  const result = renderWithConfab(<CreateChatScreen />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return result;
}

describe('CreateChatScreen', () => {
  it('creates the chat with the trimmed name and opens it', async () => {
    const { user, navigate, backend, client } = await setup();
    await user.type(screen.getByLabelText('Chat name'), '  Launch plan  ');
    await user.click(screen.getByRole('button', { name: 'Create Chat' }));
    const chat = backend.chats[0];
    expect(chat).toMatchObject({ name: 'Launch plan', creator: alice.id, participants: [alice.id], admins: [alice.id] });
    expect(navigate).toHaveBeenCalledWith(`/chat/${chat?.id}`);
    expect(client.store.getState().chats.map((entry) => entry.name)).toContain('Launch plan');
  });

  it('requires a name (the client validation message)', async () => {
    const { user, backend } = await setup();
    await user.type(screen.getByLabelText('Chat name'), '   {Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a chat name');
    expect(backend.chats).toHaveLength(0);
  });

  it('requires a signed-in user', async () => {
    const { user } = renderWithConfab(<CreateChatScreen />);
    await user.type(screen.getByLabelText('Chat name'), 'Launch{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('User ID is required to create a chat');
  });

  it("shows 'Creating...' while busy and the server's error after", async () => {
    const { user, backend } = await setup();
    backend.override('POST /api/collections/chats/records', () => errorResponse(400, 'Name is taken.'));
    const release = backend.hold();
    await user.type(screen.getByLabelText('Chat name'), 'Launch{Enter}');
    expect(screen.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    expect(screen.getByLabelText('Chat name')).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByRole('alert')).toHaveTextContent('Name is taken.');
  });

  it('goes back to /', async () => {
    const { user, navigate } = await setup();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });
});
