import type { AgentView } from '../protocol';

/*
 * The agent routes of the fake HTTP server (docs/CONTRACTS.md "Agents"), bookkeeping only (house
 * style 19): search answers `searchAnswer` whatever is asked (the matching, the chat's permitted
 * types and site-wide availability are the real server's rules, tested there), mine lists
 * `agents`, and create, update, delete and rotate change that list. A test that needs a refusal
 * sets `failNext`.
 */

export interface FakeAgentsState {
  /** The caller's agents (GET /api/agents/mine) and the hosted ones (GET /api/admin/confab-agents lists those of type confab-agent). */
  agents: AgentView[];
  /** What GET /api/agents/search answers. */
  searchAnswer: AgentView[];
  /** The next agent request answers this instead (then it is cleared). */
  failNext: { status: number; message: string; data?: Record<string, unknown> } | null;
  /** Keys handed out, newest last. */
  keys: string[];
}

type Answer = { status: number; body?: unknown };

export function createFakeAgentsState(): FakeAgentsState {
  return { agents: [], searchAnswer: [], failNext: null, keys: [] };
}

let counter = 0;

export function buildAgentView(overrides: Partial<AgentView> & { username: string }): AgentView {
  counter += 1;
  return {
    id: `agent${String(counter).padStart(10, '0')}`,
    name: overrides.username,
    description: '',
    agent_type: 'developer-agent',
    status: 'offline',
    site_wide_available: true,
    dev_room_id: '',
    created_by: 'alice0000000001',
    created: '2026-01-01 00:00:00.000Z',
    updated: '2026-01-01 00:00:00.000Z',
    ...overrides,
  };
}

const notFound: Answer = { status: 404, body: { status: 404, message: "The requested resource wasn't found.", data: {} } };

export function routeAgents(state: FakeAgentsState, request: { method: string; path: string; body: Record<string, unknown>; userId: string | undefined }): Answer | null {
  const path = request.path.split('?')[0] ?? '';
  if (!path.startsWith('/api/agents') && !path.startsWith('/api/admin/confab-agents')) return null;
  if (request.userId === undefined) return { status: 401, body: { status: 401, message: 'Missing or invalid authentication.', data: {} } };
  if (state.failNext !== null) {
    const { status, message, data = {} } = state.failNext;
    state.failNext = null;
    return { status, body: { status, message, data } };
  }
  const newKey = () => {
    const key = `cfk_${String(state.keys.length + 1).padStart(43, '0')}`;
    state.keys.push(key);
    return key;
  };
  const { method, body } = request;
  if (method === 'GET' && path === '/api/agents/search') {
    return { status: 200, body: { agents: state.searchAnswer.map(({ id, name, username, agent_type, description, status, created_by }) => ({ id, name, username, agent_type, description, status, created_by })) } };
  }
  if (method === 'GET' && path === '/api/agents/mine') return { status: 200, body: { agents: state.agents } };
  if (method === 'POST' && path === '/api/agents') {
    const name = String(body['name'] ?? '');
    const agent = buildAgentView({
      name,
      username: typeof body['username'] === 'string' ? body['username'] : name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
      description: String(body['description'] ?? ''),
      site_wide_available: body['site_wide_available'] !== false,
      created_by: request.userId,
    });
    state.agents.push(agent);
    return { status: 200, body: { agent, api_key: newKey() } };
  }
  if (method === 'GET' && path === '/api/admin/confab-agents') {
    return { status: 200, body: { agents: state.agents.filter((agent) => agent.agent_type === 'confab-agent') } };
  }
  if (method === 'POST' && path === '/api/admin/confab-agents') {
    const name = String(body['name'] ?? '');
    const agent = buildAgentView({
      name,
      username: name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
      description: String(body['description'] ?? ''),
      agent_type: 'confab-agent',
      status: 'active',
      site_wide_available: body['site_wide_available'] !== false,
    });
    state.agents.push(agent);
    return { status: 200, body: { agent } };
  }
  const one = /^\/api\/(?:agents|admin\/confab-agents)\/([^/]+)(\/rotate-key)?$/.exec(path);
  const agent = one === null ? undefined : state.agents.find((candidate) => candidate.id === decodeURIComponent(one[1] ?? ''));
  if (one === null || agent === undefined) return notFound;
  if (method === 'DELETE' && one[2] === undefined) {
    state.agents = state.agents.filter((candidate) => candidate !== agent);
    return { status: 204 };
  }
  if (method === 'PATCH' && one[2] === undefined) {
    if (typeof body['description'] === 'string') agent.description = body['description'];
    if (typeof body['site_wide_available'] === 'boolean') agent.site_wide_available = body['site_wide_available'];
    return { status: 200, body: { agent } };
  }
  if (method === 'POST' && one[2] !== undefined) return { status: 200, body: { agent, api_key: newKey() } };
  return notFound;
}
