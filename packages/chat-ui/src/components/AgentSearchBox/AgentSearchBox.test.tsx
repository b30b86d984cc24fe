import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithConfab } from '../../../test/renderWithConfab';
import { createFakeBackend } from '@confab/client/testing/fakeBackend';
import { AgentSearchBox } from './AgentSearchBox';

const alice = { id: 'user_alice_0001', username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', password: 'wonderland' };

async function setup(props: Parameters<typeof AgentSearchBox>[0] = {}) {
  const backend = createFakeBackend({ users: [alice] });
  const drops = backend.addAgent({ username: 'drops', name: 'Drops', agent_type: 'confab-agent', description: 'Creates a drop from the discussion.' });
  backend.addAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent' });
  const result = renderWithConfab(<AgentSearchBox {...props} />, { backend });
  await act(() => result.client.login('alice', 'wonderland'));
  return { ...result, drops, field: screen.getByRole('searchbox', { name: 'Search agents' }) };
}

const searches = (backend: ReturnType<typeof createFakeBackend>) => backend.requests.filter((request) => request.route === 'GET /api/agents/search').length;

describe('AgentSearchBox', () => {
  it('searches live from one non-blank character and lists agents with a Chat button', async () => {
    const { user, field, backend, navigate, drops } = await setup();
    expect(screen.getByRole('heading', { name: 'Find an agent' })).toBeInTheDocument();
    await user.type(field, '   ');
    expect(searches(backend)).toBe(0);
    await user.clear(field);
    await user.type(field, 'dr');
    expect(screen.getByRole('status', { name: 'Agent search results' })).toHaveTextContent('Searching agents...');
    const list = await screen.findByRole('list', { name: 'Agents found' });
    expect(searches(backend)).toBe(1);
    const item = within(list).getByRole('listitem', { name: '@drops' });
    expect(item).toHaveTextContent('Drops');
    expect(item).toHaveTextContent('Confab agent');
    expect(item).toHaveTextContent('Creates a drop from the discussion.');
    await user.click(within(item).getByRole('button', { name: 'Chat with @drops' }));
    expect(navigate).toHaveBeenCalledWith('/chat/new', { state: { preselectedAgent: expect.objectContaining({ id: drops.id, username: 'drops' }) } });
  });

  it('answers a repeated query from the 30 s cache', async () => {
    const { user, field, backend } = await setup();
    await user.type(field, 'deep');
    await screen.findByRole('listitem', { name: '@deep' });
    await user.clear(field);
    await user.type(field, 'deep');
    await screen.findByRole('listitem', { name: '@deep' });
    expect(searches(backend)).toBe(1);
  });

  it("says 'No agents found for …' with a hint", async () => {
    const { user, field } = await setup();
    await user.type(field, 'zebra');
    const results = screen.getByRole('status', { name: 'Agent search results' });
    expect(await within(results).findByText('No agents found for "zebra"')).toBeInTheDocument();
    expect(results).toHaveTextContent('Try a name, a username, or a type');
  });

  it('hands the agent to onChat when given', async () => {
    const onChat = vi.fn();
    const { user, field, navigate } = await setup({ onChat });
    await user.type(field, 'deep');
    await user.click(await screen.findByRole('button', { name: 'Chat with @deep' }));
    expect(onChat).toHaveBeenCalledWith(expect.objectContaining({ username: 'deep' }));
    expect(navigate).not.toHaveBeenCalled();
  });
});
