import { createHash, randomBytes } from 'node:crypto';
import type { AgentAnswer, AgentKeyAnswer, AgentListAnswer, AgentSearchAnswer, AgentStatus, AgentType, AgentView } from '@confab/client/protocol';
import { apiKeyPrefix } from '@confab/client/protocol';
import { isAgentUsername, stripUnsafeCharacters, usernameFromName } from '@confab/client/rules';
import { ConfabServerError, fieldErrors, validationError, type FieldErrors } from '../errors';
import { isUniqueViolation } from '../store/database';
import { formatTimestamp } from '../store/ids';
import type { UserRow } from '../store/repositories/users';
import type { AccountsService } from './accounts';
import type { RequestAuth, ServiceContext } from './context';
import { hasField, readBoolean, readString, type Body } from './input';
import { newUserRow } from './newUserRow';
import { tooManyRequests } from './limits/rateLimits';
import type { RecordsService } from './records';
import { builtInAgents, isBuiltInAgentUsername } from './builtInAgents';
import { isReservedUsername } from './userValidation';

/** The hosted agents the server provides (docs/CONTRACTS.md, Hosted agents); their usernames are reserved for everyone else. */
export const builtInAgentUsernames = builtInAgents.map((agent) => agent.username);

const nameMaximum = 100;
const descriptionMaximum = 500;

/**
 * A description as written, trimmed: it is a persona's prompt, so its lines stay (as \n); every
 * other invisible control and bidi override goes, as from names.
 */
function descriptionOf(body: Body): string {
  return (readString(body, 'description') ?? '').replace(/\r\n?/g, '\n').split('\n').map(stripUnsafeCharacters).join('\n').trim();
}
const searchLimit = 20;

/** Who is connected: the agent runtime's presence, seen through the one question services ask. */
export interface PresenceReader {
  isOnline(agentId: string): Promise<boolean>;
}

/** `cfk_` + 43 base64url characters: 256 random bits. */
export function newApiKey(): string {
  return `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`;
}

/** Keys carry 256 random bits: a fast hash is enough (nothing to brute-force), and lookups use it. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(`confab-api-key:${apiKey}`).digest('hex');
}

export function isAgentType(type: string): type is AgentType {
  return type === 'developer-agent' || type === 'confab-agent';
}

const agentErrors = {
  reserved: () => ({ code: 'validation_username_reserved', message: 'This username is reserved. Please choose another.' }),
  format: () => ({ code: 'validation_invalid_format', message: 'Use 3 to 30 lower-case letters, digits or _.' }),
  personName: () => ({ code: 'validation_name_of_person', message: 'A person here is called that. Please choose another name.' }),
} as const;

/** Read after the client's 'Failed to create agent: ' (docs/SECURITY.md G13). */
function tooManyAgents(maximum: number): ConfabServerError {
  return new ConfabServerError('badRequest', `You have ${maximum} agents, the most one person can have. Delete one to create another.`);
}

/**
 * Agents as people manage them (docs/CONTRACTS.md, Agents): developers create, update, delete and
 * re-key their own developer agents; server admins manage hosted ones; everyone searches site-wide
 * agents. Connections, mentions and replies are the agent runtime's (packages/server/src/agents/).
 */
export class AgentsService {
  constructor(
    private readonly context: ServiceContext,
    private readonly accounts: AccountsService,
    private readonly records: RecordsService,
    private readonly presence: PresenceReader,
  ) {}

  private now(): string {
    return formatTimestamp(this.context.config.now());
  }

  async statusOf(agent: UserRow): Promise<AgentStatus> {
    if (agent.type === 'confab-agent') return 'active';
    return (await this.presence.isOnline(agent.id)) ? 'online' : 'offline';
  }

  async view(agent: UserRow): Promise<AgentView> {
    return {
      id: agent.id,
      name: agent.name,
      username: agent.username,
      description: agent.description,
      agent_type: agent.type as AgentType,
      status: await this.statusOf(agent),
      site_wide_available: agent.site_wide_available !== 0,
      dev_room_id: agent.dev_room_id ?? '',
      created_by: agent.created_by ?? '',
      created: agent.created,
      updated: agent.updated,
    };
  }

  private async views(agents: readonly UserRow[]): Promise<AgentView[]> {
    return Promise.all(agents.map((agent) => this.view(agent)));
  }

  /** docs/PRODUCT.md §5/§6: site-wide developer and confab agents matching name, username or type; a chat narrows to the types it permits. */
  async search(auth: RequestAuth, query: string | undefined, chatId: string | undefined): Promise<AgentSearchAnswer> {
    const user = this.accounts.requireUser(auth);
    const text = (query ?? '').trim();
    const inChat = chatId !== undefined && chatId !== '';
    // A bare `@` in a chat's message input asks with no letters yet: every agent that chat permits.
    if (text === '' && !inChat) throw validationError('The search needs at least 1 character.', { q: fieldErrors.required() });
    let types: string[] = ['developer-agent', 'confab-agent'];
    if (inChat) {
      const chat = await this.context.store.chats.findById(chatId);
      if (chat === undefined || !(await this.context.store.chats.isParticipant(chatId, user.id))) throw new ConfabServerError('notFound', 'Chat not found');
      const permissions = parsePermissions(chat.agent_permissions);
      types = types.filter((type) => (type === 'confab-agent' ? permissions.confab_agents : permissions.developer_agents));
    }
    const found = await this.context.store.agents.search(text.slice(0, 100), types, searchLimit);
    const views = await this.views(found);
    // The search form of docs/PRODUCT.md §3 carries created_by; only the caller's own agents show
    // it, as in the users records (docs/SECURITY.md G14): who made an agent is its owner's to know.
    return {
      agents: views.map(({ id, name, username, agent_type, description, status, created_by }) => ({
        id, name, username, agent_type, description, status, created_by: created_by === user.id ? created_by : '',
      })),
    };
  }

  async mine(auth: RequestAuth): Promise<AgentListAnswer> {
    const user = this.accounts.requireUser(auth);
    return { agents: await this.views(await this.context.store.agents.listMine(user.id)) };
  }

  /** Name, description and username as a creator gives them; errors in the PocketBase shape. */
  /** `builtInNames`: an admin may (re)create a hosted agent under a built-in agent's name. */
  private async readNewAgent(body: Body, errors: FieldErrors, builtInNames = false) {
    const name = stripUnsafeCharacters(readString(body, 'name') ?? '').trim();
    if (name === '') errors['name'] = fieldErrors.required();
    else if (name.length > nameMaximum) errors['name'] = fieldErrors.maxText(nameMaximum);
    const description = descriptionOf(body);
    if (description.length > descriptionMaximum) errors['description'] = fieldErrors.maxText(descriptionMaximum);
    const given = readString(body, 'username')?.trim().toLowerCase().replace(/^@/, '') ?? '';
    let username = '';
    if (given !== '') {
      if (!isAgentUsername(given)) errors['username'] = agentErrors.format();
      else if (isReservedUsername(given) && !(builtInNames && (builtInAgentUsernames as readonly string[]).includes(given))) errors['username'] = agentErrors.reserved();
      else if (await this.context.store.users.usernameTaken(given)) errors['username'] = fieldErrors.identityTaken('username');
      username = given;
    } else if (name !== '') {
      username = await this.freeUsername(usernameFromName(name));
    }
    const siteWide = hasField(body, 'site_wide_available') ? readBoolean(body, 'site_wide_available') !== false : true;
    return { name, description, username, siteWide };
  }

  /** `echo_bot`, else `echo_bot_2`, `echo_bot_3` …, never a reserved name. */
  private async freeUsername(base: string): Promise<string> {
    const stem = isReservedUsername(base) ? `${base.replace(/^user_/, '')}_agent`.slice(0, 30) : base;
    for (let suffix = 1; ; suffix += 1) {
      const candidate = suffix === 1 ? stem : `${stem.slice(0, 30 - String(suffix).length - 1)}_${suffix}`;
      if (!isReservedUsername(candidate) && !(await this.context.store.users.usernameTaken(candidate))) return candidate;
    }
  }

  /**
   * `maximum`: the creator's allowance of agents, checked in the insert's own transaction so
   * concurrent creations cannot pass it together.
   */
  private async insertAgent(input: { type: AgentType; name: string; description: string; username: string; siteWide: boolean; createdBy: string | null; keyHash: string | null; maximum?: number }): Promise<UserRow> {
    const now = this.now();
    const row = await newUserRow({
      username: input.username,
      name: input.name,
      email: '',
      // Agents never sign in with a password: a random one nobody knows.
      password: randomBytes(32).toString('base64url'),
      type: input.type,
      description: input.description,
      createdBy: input.createdBy,
      siteWideAvailable: input.siteWide,
      apiKeyHash: input.keyHash,
      now,
    });
    try {
      if (input.maximum === undefined || input.createdBy === null) await this.context.store.users.insert(row);
      else if (!(await this.context.store.agents.insertWithinAllowance({ ...row, created_by: input.createdBy }, input.maximum))) throw tooManyAgents(input.maximum);
    } catch (error) {
      if (isUniqueViolation(error)) throw validationError('Failed to create agent.', { username: fieldErrors.identityTaken('username') });
      throw error;
    }
    return row;
  }

  /**
   * A person may have `agentsPerUser` developer agents and make `agentsPerUserPerHour` an hour,
   * counted through the shared limits (Redis when instances share it): agents are accounts, so
   * otherwise they would be a way around the sign-up limit to take usernames (docs/SECURITY.md G13).
   */
  private async requireAllowance(userId: string): Promise<void> {
    const maximum = this.context.config.agentsPerUser;
    if ((await this.context.store.agents.countOwned(userId)) >= maximum) throw tooManyAgents(maximum);
    const limits = this.context.rateLimits;
    const hourly = limits.limits.agentsPerUser;
    if (!(await limits.allow(`agents:user:${userId}`, hourly))) throw tooManyRequests(`You can create ${hourly.maximum} agents an hour. Please try again later.`);
  }

  /** A developer agent of the caller; its key is answered this once. */
  async create(auth: RequestAuth, body: Body): Promise<AgentKeyAnswer> {
    const user = this.accounts.requireUser(auth);
    const errors: FieldErrors = {};
    const input = await this.readNewAgent(body, errors);
    // Agents are marked wherever they show; a person's own name is still theirs alone. (Hosted
    // agents are made by server admins, who are trusted with names.)
    if (errors['name'] === undefined && (await this.context.store.agents.isPersonNamed(input.name))) errors['name'] = agentErrors.personName();
    if (Object.keys(errors).length > 0) throw validationError('Failed to create agent.', errors);
    await this.requireAllowance(user.id);
    const apiKey = newApiKey();
    const row = await this.insertAgent({ ...input, type: 'developer-agent', createdBy: user.id, keyHash: hashApiKey(apiKey), maximum: this.context.config.agentsPerUser });
    return { agent: await this.view(row), api_key: apiKey };
  }

  /** The caller's own developer agent, or the same 404 for anything else. */
  private async ownAgent(auth: RequestAuth, agentId: string): Promise<UserRow> {
    const user = this.accounts.requireUser(auth);
    const agent = await this.context.store.agents.findAgent(agentId);
    if (agent === undefined || agent.type !== 'developer-agent' || agent.created_by !== user.id) throw new ConfabServerError('notFound', 'Agent not found');
    return agent;
  }

  async update(auth: RequestAuth, agentId: string, body: Body): Promise<AgentAnswer> {
    const agent = await this.ownAgent(auth, agentId);
    const errors: FieldErrors = {};
    const changes: { description?: string; site_wide_available?: number } = {};
    if (hasField(body, 'description')) {
      const description = descriptionOf(body);
      if (description.length > descriptionMaximum) errors['description'] = fieldErrors.maxText(descriptionMaximum);
      changes.description = description;
    }
    if (hasField(body, 'site_wide_available')) changes.site_wide_available = readBoolean(body, 'site_wide_available') === false ? 0 : 1;
    if (Object.keys(errors).length > 0) throw validationError('Failed to update agent.', errors);
    await this.context.store.users.update(agent.id, { ...changes, updated: this.now() });
    const updated = await this.context.store.agents.findAgent(agent.id);
    return { agent: await this.view(updated ?? agent) };
  }

  /** Deleting ends the key at once: the agent's sockets close on every instance. */
  async remove(auth: RequestAuth, agentId: string): Promise<void> {
    const agent = await this.ownAgent(auth, agentId);
    await this.context.store.users.delete(agent.id);
    await this.accounts.endSessions(agent.id);
  }

  async rotateKey(auth: RequestAuth, agentId: string): Promise<AgentKeyAnswer> {
    const agent = await this.ownAgent(auth, agentId);
    const apiKey = newApiKey();
    await this.context.store.agents.setKeyHash(agent.id, hashApiKey(apiKey), this.now());
    await this.accounts.endSessions(agent.id);
    return { agent: await this.view(agent), api_key: apiKey };
  }

  // ---- hosted agents: server admins only ----

  private requireAdmin(auth: RequestAuth): UserRow {
    const user = this.accounts.requireUser(auth);
    if (user.is_admin !== 1) throw new ConfabServerError('forbidden', 'Only server admins can manage Confab agents.');
    return user;
  }

  async listHosted(auth: RequestAuth): Promise<AgentListAnswer> {
    this.requireAdmin(auth);
    return { agents: await this.views(await this.context.store.agents.listHosted()) };
  }

  async createHosted(auth: RequestAuth, body: Body): Promise<AgentAnswer> {
    this.requireAdmin(auth);
    const type = readString(body, 'type');
    const errors: FieldErrors = {};
    if (type !== undefined && type !== 'confab-agent') errors['type'] = fieldErrors.invalidValue();
    const input = await this.readNewAgent(body, errors, true);
    if (Object.keys(errors).length > 0) throw validationError('Failed to create hosted agent.', errors);
    const row = await this.insertAgent({ ...input, type: 'confab-agent', createdBy: null, keyHash: null });
    return { agent: await this.view(row) };
  }

  async removeHosted(auth: RequestAuth, agentId: string): Promise<void> {
    this.requireAdmin(auth);
    const agent = await this.context.store.agents.findAgent(agentId);
    if (agent === undefined || agent.type !== 'confab-agent') throw new ConfabServerError('notFound', 'Agent not found');
    if (agent.created_by === null && isBuiltInAgentUsername(agent.username)) throw new ConfabServerError('badRequest', 'Built-in agents cannot be deleted.');
    await this.context.store.users.delete(agent.id);
  }

  /**
   * Creates the built-in hosted agents that do not exist yet (at every start; idempotent, and
   * safe when instances start together: a lost race on the username is the other's row).
   */
  async ensureBuiltIn(): Promise<void> {
    for (const builtIn of builtInAgents) {
      if (await this.context.store.users.usernameTaken(builtIn.username)) continue;
      try {
        await this.insertAgent({ ...builtIn, type: 'confab-agent', siteWide: true, createdBy: null, keyHash: null });
      } catch (error) {
        if (!(await this.context.store.users.usernameTaken(builtIn.username))) throw error;
      }
    }
  }

  // ---- the agent's own credentials ----

  /** The developer agent holding this key, or undefined for a wrong, rotated or deleted one. */
  async authenticateKey(apiKey: string | undefined): Promise<UserRow | undefined> {
    if (apiKey === undefined || !apiKey.startsWith(apiKeyPrefix) || apiKey.length > 200) return undefined;
    return this.context.store.agents.findByKeyHash(hashApiKey(apiKey));
  }

  /**
   * The agent's dev room, created on its first connection: a chat of the agent and its creator
   * (who administers it, with developer agents allowed), through the chats collection like any chat.
   */
  async ensureDevRoom(agent: UserRow): Promise<string | undefined> {
    if (agent.dev_room_id !== null) return agent.dev_room_id;
    const creator = agent.created_by === null ? undefined : await this.context.store.users.findById(agent.created_by);
    if (creator === undefined) return undefined;
    const chat = await this.records.create(
      'chats',
      { user: creator, ip: '' },
      // The agent may ask @data and @deep about its own dev room's files: the room exists to build it.
      { name: `${agent.name} dev room`.slice(0, 200), description: `Talk to @${agent.username} while you build it.`, participants: [agent.id], agent_permissions: { confab_agents: true, developer_agents: true, agents_may_read_files: true } },
      {},
    );
    if (await this.context.store.agents.claimDevRoom(agent.id, chat.id)) return chat.id;
    // Another connection created one first: keep that one.
    await this.records.delete('chats', { user: creator, ip: '' }, chat.id);
    return (await this.context.store.agents.findAgent(agent.id))?.dev_room_id ?? undefined;
  }
}

/**
 * docs/PRODUCT.md §3: confab agents are on unless false, developer agents off unless true; agents
 * may ask the hosted agents that read the chat's files only when true (docs/SECURITY.md G12).
 */
export function parsePermissions(text: string | null): { confab_agents: boolean; developer_agents: boolean; agents_may_read_files: boolean } {
  let parsed: unknown = null;
  try {
    parsed = text === null ? null : JSON.parse(text);
  } catch {
    parsed = null;
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return { confab_agents: record['confab_agents'] !== false, developer_agents: record['developer_agents'] === true, agents_may_read_files: record['agents_may_read_files'] === true };
}
