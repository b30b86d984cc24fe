import type { AgentSearchHit, AgentView } from '../protocol';
import { callerId, errorResponse, json, nextRecordId, stamp } from './fakeHttp';

/*
 * The agent routes of the fake backend (docs/CONTRACTS.md "Agents"), bookkeeping only (house
 * style 19): GET /api/agents/mine answers every agent held, create/update/delete/rotate change
 * that list, and search answers the agents whose name, username or type contains the query (so
 * stories look real), every agent for a blank query with a chat. Which agents a chat permits, site-wide availability, ownership and the admin check
 * are the real server's rules, tested there; a test that needs a refusal or a narrower answer
 * scripts it with `backend.override(...)`.
 */

export type FakeAgentInput = Partial<AgentView> & { username: string };

export function buildFakeAgent(input: FakeAgentInput): AgentView {
  const hosted = input.agent_type === 'confab-agent';
  return {
    id: nextRecordId('agent'),
    name: input.username,
    description: '',
    agent_type: 'developer-agent',
    status: hosted ? 'active' : 'offline',
    site_wide_available: true,
    dev_room_id: '',
    created_by: '',
    created: stamp(0),
    updated: stamp(0),
    ...input,
  };
}

const searchHit = ({ id, name, username, agent_type, description, status, created_by }: AgentView): AgentSearchHit => ({
  id,
  name,
  username,
  agent_type,
  description,
  status,
  created_by,
});

export function createAgentRoutes(data: { agents: AgentView[]; agentKeys: string[] }) {
  const newKey = () => {
    const key = `cfk_${'k'.repeat(39)}${String(data.agentKeys.length + 1).padStart(4, '0')}`;
    data.agentKeys.push(key);
    return key;
  };
  const usernameFor = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'agent';

  return (request: Request, url: URL, body: Record<string, unknown>): Response | null => {
    const path = url.pathname;
    if (!path.startsWith('/api/agents') && !path.startsWith('/api/admin/confab-agents')) return null;
    const caller = callerId(request);
    if (caller === null) return errorResponse(401, 'Missing or invalid authentication.');
    const { method } = request;

    if (method === 'GET' && path === '/api/agents/search') {
      const query = (url.searchParams.get('q') ?? '').trim().toLowerCase();
      // A blank query asks for every agent of a chat (a bare @ in its message input); without one it is refused.
      if (query === '' && (url.searchParams.get('chat_id') ?? '') === '') return errorResponse(400, 'The search needs at least 1 character.', { q: { code: 'validation_required', message: 'Cannot be blank.' } });
      const found = data.agents.filter((agent) => [agent.username, agent.name.toLowerCase(), agent.agent_type].some((field) => field.includes(query)));
      return json(200, { agents: found.map(searchHit) });
    }
    if (method === 'GET' && path === '/api/agents/mine') return json(200, { agents: data.agents });
    if (method === 'GET' && path === '/api/admin/confab-agents') {
      return json(200, { agents: data.agents.filter((agent) => agent.agent_type === 'confab-agent') });
    }
    if (method === 'POST' && (path === '/api/agents' || path === '/api/admin/confab-agents')) {
      const hosted = path !== '/api/agents';
      const name = String(body['name'] ?? '');
      const agent = buildFakeAgent({
        name,
        username: typeof body['username'] === 'string' && body['username'] !== '' ? body['username'] : usernameFor(name),
        description: String(body['description'] ?? ''),
        site_wide_available: body['site_wide_available'] !== false,
        agent_type: hosted ? 'confab-agent' : 'developer-agent',
        created_by: hosted ? '' : caller,
      });
      data.agents.push(agent);
      return json(200, hosted ? { agent } : { agent, api_key: newKey() });
    }
    const one = /^\/api\/(?:agents|admin\/confab-agents)\/([^/]+)(\/rotate-key)?$/.exec(path);
    const agent = one === null ? undefined : data.agents.find((candidate) => candidate.id === decodeURIComponent(one[1] ?? ''));
    if (one === null || agent === undefined) return errorResponse(404, 'Agent not found.');
    if (method === 'DELETE' && one[2] === undefined) {
      data.agents.splice(data.agents.indexOf(agent), 1);
      return new Response(null, { status: 204 });
    }
    if (method === 'PATCH' && one[2] === undefined) {
      if (typeof body['description'] === 'string') agent.description = body['description'];
      if (typeof body['site_wide_available'] === 'boolean') agent.site_wide_available = body['site_wide_available'];
      return json(200, { agent });
    }
    if (method === 'POST' && one[2] !== undefined) return json(200, { agent, api_key: newKey() });
    return null;
  };
}
