import { constants } from '../constants';
import { ConfabError, toConfabError } from '../errors';
import type { AgentAnswer, AgentKeyAnswer, AgentListAnswer, AgentSearchAnswer, AgentSearchHit, AgentView } from '../protocol';
import type { RealtimeConnection } from '../realtime/RealtimeConnection';
import { resolveAgentPermissions } from '../records';
import type { ClientState, ConfabStore } from '../store/createConfabStore';
import { shouldSearchAgents, validateAgentCreation, validateHostedAgentCreation } from '../validation/content';
import { LatestOnly } from '../store/latestOnly';

export type { AgentSearchHit, AgentView };

export interface AgentSearchOptions {
  /** Only the agent types this chat permits (a chat of the caller). */
  chatId?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface CreateAgentInput {
  /** Required; trimmed. */
  name: string;
  /** Trimmed; omitted when empty. */
  description?: string | undefined;
  /** The agent's @username; the server derives one from the name when absent. */
  username?: string | undefined;
  /** Default true on the server: found by search everywhere; false: only in its dev room. */
  siteWideAvailable?: boolean | undefined;
}

export interface UpdateAgentInput {
  description?: string | undefined;
  siteWideAvailable?: boolean | undefined;
}

export interface CreateHostedAgentInput {
  /** The display name; required, trimmed. */
  name: string;
  description?: string | undefined;
  siteWideAvailable?: boolean | undefined;
}

/** An agent with its API key, shown this once (creation and rotation). */
export interface AgentWithKey {
  agent: AgentView;
  api_key: string;
}

type Request = <Result>(path: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }) => Promise<Result>;

export interface AgentsServiceDependencies {
  request: Request;
  /** Holds the user's agents (store.agents, agentsLoading, agentsError). */
  store: ConfabStore;
  /** Its `agent_presence` frames update an agent's status in store.agents. */
  realtime: RealtimeConnection;
  /** The clock of the search cache; default Date.now. */
  now?: () => number;
}

interface CachedSearch {
  at: number;
  agents: AgentSearchHit[];
}

/** Which agent types each chat in the state permits, as a comparable key per chat id. */
function permissionKeys(state: ClientState): Map<string, string> {
  const keys = new Map<string, string>();
  for (const chat of [...state.chats, ...(state.currentChat === null ? [] : [state.currentChat])]) {
    const permitted = resolveAgentPermissions(chat);
    keys.set(chat.id, `${permitted.confabAgents}:${permitted.developerAgents}`);
  }
  return keys;
}

const agentPath = (id: string) => `/api/agents/${encodeURIComponent(id)}`;
const hostedPath = (id: string) => `/api/admin/confab-agents/${encodeURIComponent(id)}`;

/**
 * Agents (docs/CONTRACTS.md "Agents"): search (cached 30 s per query and chat, docs/PRODUCT.md §9),
 * the user's own agents in store.agents, their keys, and hosted Confab agents for admins. Every
 * failure rejects with a ConfabError; screens word it with the docs/PRODUCT.md §8 mappers
 * (createAgentErrorMessage and friends).
 *
 * @example
 * const { agent, api_key } = await client.agents.create({ name: 'Echo Bot' });
 * // show api_key once; then connect with it: connectAgent({ url, apiKey: api_key })
 */
export class AgentsService {
  private readonly cache = new Map<string, CachedSearch>();
  private readonly now: () => number;
  /** Loads of store.agents: a late answer never overwrites a newer one or another person's. */
  private readonly loads = new LatestOnly();

  constructor(private readonly dependencies: AgentsServiceDependencies) {
    this.now = dependencies.now ?? (() => Date.now());
    const { realtime, store } = dependencies;
    realtime.on('agent_presence', ({ agent_id, status }) => {
      const index = store.getState().agents.findIndex((agent) => agent.id === agent_id);
      const current = store.getState().agents[index];
      if (current === undefined || current.status === status) return;
      const agents = [...store.getState().agents];
      agents[index] = { ...current, status };
      store.setState({ agents });
      // An agent's first connection creates its dev room, which the frame does not carry.
      if (status === 'online' && current.dev_room_id === '') void this.mine().catch(() => {});
    });
    // Another session must not see this one's agents or searches (search results depend on who asks).
    store.subscribe((state, previous) => {
      if (state.user?.id !== previous.user?.id) {
        this.cache.clear();
        this.loads.renew();
        return;
      }
      // A chat's agent settings changed (Chat Options here, or chat_updated from elsewhere): its
      // cached answers were for the old ones.
      if (state.chats === previous.chats && state.currentChat === previous.currentChat) return;
      const before = permissionKeys(previous);
      for (const [chatId, key] of permissionKeys(state)) {
        if (before.has(chatId) && before.get(chatId) !== key) this.forgetChat(chatId);
      }
    });
  }

  /**
   * Agents whose name, username or type contains the trimmed query (docs/PRODUCT.md §5), at most
   * 20; with chatId only the types that chat permits (docs/PRODUCT.md §6), and a blank query then
   * lists all of them; [] without a request for a blank query and no chat. Answers are cached 30 s
   * per (query, chat), until that chat's agent settings change in the store; a failed or aborted
   * search is not cached.
   */
  async search(query: string, options: AgentSearchOptions = {}): Promise<AgentSearchHit[]> {
    const chatId = options.chatId ?? '';
    // A blank query in a chat (a bare @ in its message input) lists the agents it permits.
    if (!shouldSearchAgents(query) && chatId === '') return [];
    const trimmed = query.trim();
    const key = `${trimmed.toLowerCase()}\u0000${chatId}`;
    const cached = this.cache.get(key);
    if (cached !== undefined && this.now() - cached.at < constants.agentSearch.cacheMs) return cached.agents;
    const parameters = new URLSearchParams({ q: trimmed });
    if (chatId !== '') parameters.set('chat_id', chatId);
    const answer = await this.dependencies.request<AgentSearchAnswer>(
      `/api/agents/search?${parameters.toString()}`,
      options.signal ? { signal: options.signal } : {},
    );
    const agents = answer?.agents ?? [];
    this.cache.set(key, { at: this.now(), agents });
    return agents;
  }

  /** Forgets cached searches (an agent was created, changed or deleted). */
  clearSearchCache(): void {
    this.cache.clear();
  }

  private forgetChat(chatId: string): void {
    for (const key of this.cache.keys()) if (key.endsWith(`\u0000${chatId}`)) this.cache.delete(key);
  }

  /** The user's developer agents, then every Confab agent, into store.agents. */
  async mine(): Promise<AgentView[]> {
    const { store, request } = this.dependencies;
    const signal = this.loads.renew();
    store.setState({ agentsLoading: true, agentsError: null });
    try {
      const answer = await request<AgentListAnswer>('/api/agents/mine');
      const agents = answer?.agents ?? [];
      if (!signal.aborted) store.setState({ agents, agentsLoading: false });
      return agents;
    } catch (error) {
      const failure = toConfabError(error);
      if (!signal.aborted) store.setState({ agentsLoading: false, agentsError: failure.message });
      throw failure;
    }
  }

  /**
   * Creates a developer agent; resolves with it and its API key, which is never shown again.
   * Rejects with 'Please enter an agent name' (400) for a blank name, without a request.
   */
  async create(input: CreateAgentInput): Promise<AgentWithKey> {
    const description = input.description?.trim() ?? '';
    const invalid = validateAgentCreation({ name: input.name, description });
    if (invalid !== null) throw new ConfabError(invalid, 400);
    const body: Record<string, unknown> = { name: input.name.trim() };
    if (description !== '') body['description'] = description;
    const username = input.username?.trim().replace(/^@/, '') ?? '';
    if (username !== '') body['username'] = username;
    if (input.siteWideAvailable !== undefined) body['site_wide_available'] = input.siteWideAvailable;
    const answer = await this.dependencies.request<AgentKeyAnswer>('/api/agents', { method: 'POST', body });
    this.remember(answer.agent);
    return { agent: answer.agent, api_key: answer.api_key };
  }

  /** Changes an agent's description or availability (owner only). */
  async update(id: string, patch: UpdateAgentInput): Promise<AgentView> {
    const body: Record<string, unknown> = {};
    if (patch.description !== undefined) body['description'] = patch.description.trim();
    if (patch.siteWideAvailable !== undefined) body['site_wide_available'] = patch.siteWideAvailable;
    const answer = await this.dependencies.request<AgentAnswer>(agentPath(id), { method: 'PATCH', body });
    this.remember(answer.agent);
    return answer.agent;
  }

  /** Deletes an agent (owner only); its connections close, its dev room stays. */
  async remove(id: string): Promise<void> {
    await this.dependencies.request<void>(agentPath(id), { method: 'DELETE' });
    this.forget(id);
  }

  /** A new API key (shown this once); the old one stops working at once. */
  async rotateKey(id: string): Promise<AgentWithKey> {
    const answer = await this.dependencies.request<AgentKeyAnswer>(`${agentPath(id)}/rotate-key`, { method: 'POST' });
    this.remember(answer.agent);
    return { agent: answer.agent, api_key: answer.api_key };
  }

  /** Hosted Confab agents (server admins only: 403 otherwise). */
  async listHosted(): Promise<AgentView[]> {
    const answer = await this.dependencies.request<AgentListAnswer>('/api/admin/confab-agents');
    return answer?.agents ?? [];
  }

  /**
   * Creates a hosted Confab agent (admins only). Rejects with 'Please enter a display name' (400)
   * for a blank name, without a request.
   */
  async createHosted(input: CreateHostedAgentInput): Promise<AgentView> {
    const invalid = validateHostedAgentCreation({ displayName: input.name });
    if (invalid !== null) throw new ConfabError(invalid, 400);
    const body: Record<string, unknown> = {
      name: input.name.trim(),
      description: input.description?.trim() ?? '',
      type: 'confab-agent',
      site_wide_available: input.siteWideAvailable ?? true,
    };
    const answer = await this.dependencies.request<AgentAnswer>('/api/admin/confab-agents', { method: 'POST', body });
    this.remember(answer.agent);
    return answer.agent;
  }

  /** Deletes a hosted Confab agent (admins only). */
  async removeHosted(id: string): Promise<void> {
    await this.dependencies.request<void>(hostedPath(id), { method: 'DELETE' });
    this.forget(id);
  }

  /** Puts an agent into store.agents (replacing its older copy) and forgets cached searches. */
  private remember(agent: AgentView): void {
    this.cache.clear();
    this.dependencies.store.setState((state) => {
      const index = state.agents.findIndex((candidate) => candidate.id === agent.id);
      if (index === -1) {
        // Developer agents first, then hosted ones, as GET /api/agents/mine lists them.
        const firstHosted = state.agents.findIndex((candidate) => candidate.agent_type === 'confab-agent');
        const at = agent.agent_type === 'confab-agent' || firstHosted === -1 ? state.agents.length : firstHosted;
        return { agents: [...state.agents.slice(0, at), agent, ...state.agents.slice(at)] };
      }
      const agents = [...state.agents];
      agents[index] = agent;
      return { agents };
    });
  }

  private forget(id: string): void {
    this.cache.clear();
    this.dependencies.store.setState((state) => ({ agents: state.agents.filter((agent) => agent.id !== id) }));
  }
}
