import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfabClient } from '../client/ConfabClient';
import { connectedClient } from '../testing/connectedClient';
import { buildChat } from '../testing/builders';
import { buildFakeAgent } from '../testing/fakeAgents';
import { startFakeGateway } from '../testing/fakeGateway';
import type { FakeGateway } from '../testing/fakeGateway';
import { startFakeServer } from '../testing/fakeServer';
import type { FakeServer } from '../testing/fakeServer';
import { fakeTimerOptions, waitUntil } from '../testing/waitUntil';
import {
  createAgentErrorMessage,
  createHostedAgentErrorMessage,
  deleteAgentErrorMessage,
  deleteHostedAgentErrorMessage,
  updateAgentErrorMessage,
} from '../validation/serverErrors';

let server: FakeServer;
let client: ConfabClient;

beforeEach(async () => {
  server = await startFakeServer();
  client = new ConfabClient({ baseUrl: server.url, realtime: { autoConnect: false } });
  await client.login('alice', 'correct-horse');
});

afterEach(async () => {
  client.logout();
  vi.useRealTimers();
  await server.close();
});

const agentRequests = () => server.requests.filter((request) => request.path.startsWith('/api/agents') || request.path.startsWith('/api/admin/'));
const lastRequest = () => server.requests.at(-1);
const state = () => client.store.getState();

describe('agents.search', () => {
  const deep = buildFakeAgent({ username: 'deep', name: 'Deep Research', agent_type: 'confab-agent', status: 'active' });

  it('asks with the trimmed query and the chat, answering the spec search form', async () => {
    server.backend.agents.push(deep);
    const found = await client.agents.search('  de ', { chatId: 'chat1' });
    expect(found).toEqual([{ id: deep.id, name: 'Deep Research', username: 'deep', agent_type: 'confab-agent', description: '', status: 'active', created_by: deep.created_by }]);
    expect(lastRequest()?.path).toBe('/api/agents/search?q=de&chat_id=chat1');
    expect(lastRequest()?.headers['authorization']).toMatch(/^Bearer /);
  });

  it('makes no request for a blank query without a chat', async () => {
    await expect(client.agents.search('   ')).resolves.toEqual([]);
    expect(agentRequests()).toHaveLength(0);
  });

  it('asks for every agent a chat permits for a blank query in that chat (a bare @)', async () => {
    server.backend.agents.push(deep);
    await expect(client.agents.search(' ', { chatId: 'chat1' })).resolves.toHaveLength(1);
    expect(lastRequest()?.path).toBe('/api/agents/search?q=&chat_id=chat1');
  });

  it("forgets a chat's cached answers when its agent settings change, and only that chat's", async () => {
    server.backend.agents.push(deep);
    const launch = buildChat({ id: 'chat1', agent_permissions: { confab_agents: true, developer_agents: false } });
    const design = buildChat({ id: 'chat2' });
    client.store.setState({ chats: [launch, design], currentChat: launch });
    await client.agents.search('de', { chatId: 'chat1' });
    await client.agents.search('de', { chatId: 'chat2' });
    await client.agents.search('de', { chatId: 'chat1' });
    expect(agentRequests()).toHaveLength(2);
    // Another change (a new message, a rename) keeps the answers.
    client.store.setState({ chats: [{ ...launch, name: 'Renamed' }, design] });
    await client.agents.search('de', { chatId: 'chat1' });
    expect(agentRequests()).toHaveLength(2);
    // As chat_updated brings it: developer agents now allowed.
    const allowed = { ...launch, agent_permissions: { confab_agents: true, developer_agents: true } };
    client.store.setState({ chats: [allowed, design], currentChat: allowed });
    await client.agents.search('de', { chatId: 'chat1' });
    await client.agents.search('de', { chatId: 'chat2' });
    expect(agentRequests()).toHaveLength(3);
  });

  it('asks again after a chat_updated frame changes the chat’s agent settings', async () => {
    const gateway: FakeGateway = await startFakeGateway();
    const live = await connectedClient(server, gateway);
    try {
      server.backend.agents.push(deep);
      const chat = buildChat({ id: 'chat1', participants: ['alice0000000001'], agent_permissions: { confab_agents: false } });
      live.store.setState({ chats: [chat] });
      const before = agentRequests().length;
      await live.agents.search('', { chatId: 'chat1' });
      await live.agents.search('', { chatId: 'chat1' });
      expect(agentRequests()).toHaveLength(before + 1);
      gateway.push({ type: 'chat_updated', chat: { ...chat, agent_permissions: { confab_agents: true } } });
      await waitUntil(() => live.store.getState().chats[0]?.agent_permissions?.confab_agents === true, 'chat_updated');
      await live.agents.search('', { chatId: 'chat1' });
      expect(agentRequests()).toHaveLength(before + 2);
    } finally {
      live.logout();
      await gateway.close();
    }
  });

  it('caches answers 30 s per query and chat (docs/PRODUCT.md §9)', async () => {
    vi.useFakeTimers(fakeTimerOptions);
    server.backend.agents.push(deep);
    await client.agents.search('deep');
    await client.agents.search(' DEEP ');
    expect(agentRequests()).toHaveLength(1);
    await client.agents.search('deep', { chatId: 'chat1' });
    expect(agentRequests()).toHaveLength(2);
    vi.advanceTimersByTime(29_999);
    await client.agents.search('deep');
    expect(agentRequests()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    await client.agents.search('deep');
    expect(agentRequests()).toHaveLength(3);
  });

  it('does not cache failures, and a created agent clears the cache', async () => {
    server.backend.failNext(500, 'Search is down.');
    await expect(client.agents.search('deep')).rejects.toMatchObject({ status: 500, message: 'Search is down.' });
    await client.agents.search('deep');
    expect(agentRequests()).toHaveLength(2);
    await client.agents.create({ name: 'Echo' });
    await client.agents.search('deep');
    expect(agentRequests()).toHaveLength(4);
  });

  it('passes the abort signal on', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.agents.search('deep', { signal: controller.signal })).rejects.toMatchObject({ isAbort: true });
  });
});

describe("the user's agents in the store", () => {
  it('lists mine into store.agents with loading and error states', async () => {
    const echo = buildFakeAgent({ username: 'echo' });
    server.backend.agents.push(echo);
    const loading = client.agents.mine();
    expect(state()).toMatchObject({ agentsLoading: true, agentsError: null });
    await expect(loading).resolves.toEqual([echo]);
    expect(state()).toMatchObject({ agents: [echo], agentsLoading: false });
    server.backend.failNext(500, 'Broken.');
    await expect(client.agents.mine()).rejects.toMatchObject({ status: 500 });
    expect(state()).toMatchObject({ agents: [echo], agentsLoading: false, agentsError: 'Broken.' });
  });

  it('creates with trimmed fields; the key comes back once and the agent enters the store before hosted ones', async () => {
    const hosted = buildFakeAgent({ username: 'deep', agent_type: 'confab-agent', status: 'active' });
    server.backend.agents.push(hosted);
    await client.agents.mine();
    const created = await client.agents.create({ name: '  Echo Bot ', description: ' repeats ', username: '@echo_bot', siteWideAvailable: false });
    expect(lastRequest()?.body).toEqual({ name: 'Echo Bot', description: 'repeats', username: 'echo_bot', site_wide_available: false });
    expect(created.api_key).toMatch(/^cfk_/);
    expect(created.agent).toMatchObject({ name: 'Echo Bot', username: 'echo_bot', site_wide_available: false });
    expect(state().agents.map((agent) => agent.username)).toEqual(['echo_bot', 'deep']);
    expect(JSON.stringify(state())).not.toContain(created.api_key);
  });

  it('refuses a blank name without a request', async () => {
    await expect(client.agents.create({ name: '   ' })).rejects.toMatchObject({ status: 400, message: 'Please enter an agent name' });
    expect(agentRequests()).toHaveLength(0);
  });

  it('updates, rotates and removes, keeping the store in step', async () => {
    const { agent } = await client.agents.create({ name: 'Echo' });
    const updated = await client.agents.update(agent.id, { description: ' new words ', siteWideAvailable: false });
    expect(lastRequest()).toMatchObject({ method: 'PATCH', path: `/api/agents/${agent.id}`, body: { description: 'new words', site_wide_available: false } });
    expect(state().agents).toEqual([updated]);
    const rotated = await client.agents.rotateKey(agent.id);
    expect(lastRequest()).toMatchObject({ method: 'POST', path: `/api/agents/${agent.id}/rotate-key` });
    expect(rotated.api_key).toBe(server.backend.agentKeys.at(-1));
    await client.agents.remove(agent.id);
    expect(lastRequest()).toMatchObject({ method: 'DELETE', path: `/api/agents/${agent.id}` });
    expect(state().agents).toEqual([]);
  });

  it("follows agent_presence frames for the user's agents", async () => {
    const gateway: FakeGateway = await startFakeGateway();
    const live = await connectedClient(server, gateway);
    try {
      const echo = buildFakeAgent({ username: 'echo' });
      server.backend.agents.push(echo);
      await live.agents.mine();
      // Its first connection made its dev room: coming online reloads the list to show it.
      server.backend.agents[0] = { ...echo, status: 'online', dev_room_id: 'devroom00000001' };
      gateway.push({ type: 'agent_presence', agent_id: echo.id, status: 'online' });
      await waitUntil(() => live.store.getState().agents[0]?.status === 'online', 'the agent to be online');
      await waitUntil(() => live.store.getState().agents[0]?.dev_room_id === 'devroom00000001', 'its dev room');
      const loads = server.requests.filter((request) => request.path === '/api/agents/mine').length;
      gateway.push({ type: 'agent_presence', agent_id: 'someone_else', status: 'online' });
      gateway.push({ type: 'agent_presence', agent_id: echo.id, status: 'offline' });
      await waitUntil(() => live.store.getState().agents[0]?.status === 'offline', 'the agent to be offline');
      expect(live.store.getState().agents).toHaveLength(1);
      gateway.push({ type: 'agent_presence', agent_id: echo.id, status: 'online' });
      await waitUntil(() => live.store.getState().agents[0]?.status === 'online', 'the agent to be online again');
      expect(server.requests.filter((request) => request.path === '/api/agents/mine')).toHaveLength(loads);
    } finally {
      live.logout();
      await gateway.close();
    }
  });
});

describe('hosted Confab agents', () => {
  it('lists, creates with the spec payload, and deletes', async () => {
    const created = await client.agents.createHosted({ name: ' Summariser ', description: ' sums up ' });
    expect(lastRequest()).toMatchObject({
      method: 'POST',
      path: '/api/admin/confab-agents',
      body: { name: 'Summariser', description: 'sums up', type: 'confab-agent', site_wide_available: true },
    });
    await expect(client.agents.listHosted()).resolves.toEqual([created]);
    await client.agents.removeHosted(created.id);
    expect(lastRequest()).toMatchObject({ method: 'DELETE', path: `/api/admin/confab-agents/${created.id}` });
    await expect(client.agents.listHosted()).resolves.toEqual([]);
  });

  it('refuses a blank display name without a request, and passes 403 on', async () => {
    await expect(client.agents.createHosted({ name: ' ' })).rejects.toMatchObject({ status: 400, message: 'Please enter a display name' });
    expect(agentRequests()).toHaveLength(0);
    server.backend.failNext(403, 'Only admins can manage Confab agents.');
    await expect(client.agents.listHosted()).rejects.toMatchObject({ status: 403 });
  });
});

describe('the docs/PRODUCT.md §8 agent texts', () => {
  it('words failures with field errors, the server message, or the error itself', async () => {
    server.backend.failNext(400, 'Failed to create agent.', { username: { code: 'validation_not_unique', message: 'The username is taken.' } });
    const taken = await client.agents.create({ name: 'Echo', username: 'echo' }).catch((error: unknown) => error);
    expect(createAgentErrorMessage(taken)).toBe('Failed to create agent: Username: The username is taken');
    server.backend.failNext(404, 'Agent not found.');
    const missing = await client.agents.update('nope', { description: 'x' }).catch((error: unknown) => error);
    expect(updateAgentErrorMessage(missing)).toBe('Failed to update agent: Agent not found.');
    expect(deleteAgentErrorMessage(new Error('Network down'))).toBe('Failed to delete agent: Network down');
    expect(createHostedAgentErrorMessage(missing)).toBe('Failed to create hosted agent: Agent not found.');
    expect(deleteHostedAgentErrorMessage(missing)).toBe('Failed to delete hosted agent: Agent not found.');
  });
});
