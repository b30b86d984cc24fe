import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AgentSearchHit } from '@confab/client';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend, errorResponse } from '@confab/client/testing/fakeBackend';
import { CreateChatScreen } from './CreateChatScreen';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice', password: 'wonderland' };

const drops: AgentSearchHit = {
  id: 'agentdrops00001',
  name: 'Drops',
  username: 'drops',
  agent_type: 'confab-agent',
  description: 'Creates a drop from the discussion.',
  status: 'active',
  created_by: '',
};
const echo: AgentSearchHit = { ...drops, id: 'agentecho000001', name: 'Echo Bot', username: 'echo_bot', agent_type: 'developer-agent', description: '', status: 'online' };

async function setup(preselectedAgent: AgentSearchHit | null = null) {
  const backend = createFakeBackend({ users: [alice] });
  const result = renderWithConfab(<CreateChatScreen preselectedAgent={preselectedAgent} />, { backend });
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

  it('starts a chat with a preselected agent, sending the spec first message to @drops (docs/PRODUCT.md §7)', async () => {
    const { user, navigate, backend } = await setup(drops);
    expect(screen.getByRole('heading', { name: 'Chat with @drops' })).toBeInTheDocument();
    expect(screen.getByLabelText('Chat name')).toHaveValue('Chat with Drops');
    expect(screen.getByLabelText('First message')).toHaveValue('@drops create a summary drop about our recent discussion');
    await user.click(screen.getByRole('button', { name: 'Create Chat' }));
    const chat = backend.chats[0];
    expect(chat?.name).toBe('Chat with Drops');
    expect(chat?.agent_permissions).toBeNull();
    expect(navigate).toHaveBeenCalledWith(`/chat/${chat?.id}`, { state: { firstMessage: '@drops create a summary drop about our recent discussion' } });
  });

  it('lets the person finish the mention of another agent, and allows developer agents in that chat', async () => {
    const { user, navigate, backend } = await setup(echo);
    const first = screen.getByLabelText('First message');
    expect(first).toHaveValue('@echo_bot ');
    await user.type(first, 'hello there');
    await user.click(screen.getByRole('button', { name: 'Create Chat' }));
    const chat = backend.chats[0];
    expect(chat?.agent_permissions).toEqual({ confab_agents: true, developer_agents: true, agents_may_read_files: false });
    expect(navigate).toHaveBeenCalledWith(`/chat/${chat?.id}`, { state: { firstMessage: '@echo_bot hello there' } });
  });

  it('sends nothing for a bare mention', async () => {
    const { user, navigate, backend } = await setup(echo);
    await user.click(screen.getByRole('button', { name: 'Create Chat' }));
    expect(navigate).toHaveBeenCalledWith(`/chat/${backend.chats[0]?.id}`);
  });

  it('offers the agent search without a preselection, and can drop a chosen agent', async () => {
    const { user, backend } = await setup();
    backend.addAgent({ username: 'drops', name: 'Drops', agent_type: 'confab-agent' });
    const search = screen.getByRole('region', { name: 'Or start with an agent' });
    await user.type(within(search).getByRole('searchbox', { name: 'Search agents' }), 'drops');
    await user.click(await within(search).findByRole('button', { name: 'Chat with @drops' }));
    expect(screen.getByLabelText('First message')).toHaveValue('@drops create a summary drop about our recent discussion');
    expect(screen.queryByRole('region', { name: 'Or start with an agent' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start without an agent' }));
    expect(screen.queryByLabelText('First message')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Or start with an agent' })).toBeInTheDocument();
  });
});
