import { agentLimits, agentNoticeTexts, type AgentNoticeReason, type MentionReason } from '@confab/client/protocol';
import { extractMentions } from '@confab/client/rules';
import { formatTimestamp } from '../store/ids';
import type { ChatRow } from '../store/repositories/chats';
import type { MessageRow } from '../store/repositories/messages';
import type { UserRow } from '../store/repositories/users';
import { isAgentType, parsePermissions } from '../services/agents';
import type { Services } from '../services/index';
import type { ReplyTarget } from '../services/replies';
import type { AgentRuntime } from './runtime';

/** Agent-to-agent mentions one chat may carry per minute, on top of the hop limit. */
const agentHopsPerChat = { maximum: 30, windowMs: 60 * 1000, name: 'agentHopsPerChat', whenUnreachable: 'local' } as const;

/**
 * Hosted agents that read the chat's files (@data its tables, @deep its workspace). An agent's
 * mention reaches them only where a chat admin set `agents_may_read_files` (docs/SECURITY.md G12):
 * a developer agent mentioned once must not be able to read the chat's payroll through them.
 */
const fileReadingAgents = new Set(['data', 'deep']);

interface Target {
  agent: UserRow;
  reason: MentionReason;
}

/**
 * The mention router (ARCHITECTURE "Routing after commit"): runs once per stored message, on the
 * instance that stored it, registered as the messaging service's after-post listener. It finds
 * the agents a message mentions (or the chat's auto-route agent), checks the chat's agent
 * permissions and each agent's availability, and hands a mention to the runtime, or tells the
 * sender why not.
 */
export class MentionRouter {
  constructor(
    private readonly services: Services,
    private readonly runtime: AgentRuntime,
  ) {}

  private get context() {
    return this.services.context;
  }

  /** `content`: the message's plaintext, as its author sent it (decrypting the row again would only repeat it). */
  async route(posted: { row: MessageRow; author: UserRow; mentionId: string | undefined; content: string; reply?: ReplyTarget | undefined }): Promise<void> {
    const { row, author } = posted;
    // A hosted agent's message is model output and text it brought in (pages, search results,
    // files, mail): someone else's words, so it never mentions anyone (docs/SECURITY.md G10). This
    // also keeps its results from invoking again the agent that asked (G11).
    if (author.type === 'confab-agent') return;
    const chat = await this.context.store.chats.findById(row.chat);
    if (chat === undefined) return;
    const authorIsAgent = isAgentType(author.type);
    const usernames = extractMentions(posted.content);
    const targets: Target[] = (await this.context.store.agents.findByUsernames(usernames))
      .filter((agent) => agent.id !== author.id)
      .map((agent) => ({ agent, reason: 'mention' as const }));
    const repliedTo = authorIsAgent ? undefined : await this.repliedAgent(posted.reply, author);
    if (repliedTo !== undefined && !targets.some((target) => target.agent.id === repliedTo.id)) targets.push({ agent: repliedTo, reason: 'mention' });
    if (targets.length === 0 && !authorIsAgent) {
      const autoRoute = await this.autoRouteTarget(chat, author);
      if (autoRoute !== undefined) targets.push(autoRoute);
    }
    if (targets.length === 0) return;
    const hop = authorIsAgent ? (await this.invocationHop(author, chat.id, posted.mentionId)) + 1 : 1;
    for (const target of targets) await this.consider(target, { chat, row, author, hop });
  }

  /**
   * A person's reply to an agent's message goes on talking to that agent: it is routed to it as a
   * mention would be, with the same checks (docs/CONTRACTS.md, Replies). Agents' replies route
   * nothing this way (an agent answers a mention as a reply to it; two agents must not be able to
   * keep each other talking without naming each other).
   */
  private async repliedAgent(reply: ReplyTarget | undefined, author: UserRow): Promise<UserRow | undefined> {
    if (reply === undefined || reply.named.author === author.id) return undefined;
    const agent = await this.context.store.users.findById(reply.named.author);
    return agent !== undefined && isAgentType(agent.type) ? agent : undefined;
  }

  private async autoRouteTarget(chat: ChatRow, author: UserRow): Promise<Target | undefined> {
    const username = chat.auto_route_agent.trim().replace(/^@/, '').toLowerCase();
    if (chat.auto_route_enabled !== 1 || username === '') return undefined;
    const [agent] = await this.context.store.agents.findByUsernames([username]);
    return agent === undefined || agent.id === author.id ? undefined : { agent, reason: 'auto_route' };
  }

  /**
   * The hop of the invocation an agent's message answers, from the real chain (docs/SECURITY.md
   * G11): the mention it names (the messaging service refused the post if that was not its own,
   * in this chat, unexpired), but never less than any mention of it in the chat since then, which
   * its answers to that mention may have caused. So naming an old hop-1 mention cannot restart a
   * chain. Without a mention_id: its deepest invocation still running here.
   */
  private async invocationHop(agent: UserRow, chatId: string, mentionId: string | undefined): Promise<number> {
    const store = this.context.store.agents;
    const named = mentionId === undefined ? undefined : await store.findMention(mentionId);
    const own = named !== undefined && named.agent === agent.id && named.chat === chatId ? named : undefined;
    const since = own?.created ?? formatTimestamp(new Date(this.context.config.now().getTime() - agentLimits.invocationMs));
    const deepest = await store.deepestInvocationHop(agent.id, chatId, since);
    // An agent posting on its own (in its dev room, or a chat it belongs to) starts a chain like a person.
    return Math.max(own === undefined ? 0 : Number(own.hop), deepest ?? 0);
  }

  private async consider(target: Target, message: { chat: ChatRow; row: MessageRow; author: UserRow; hop: number }): Promise<void> {
    const { agent, reason } = target;
    const { chat, row, author, hop } = message;
    const authorIsAgent = isAgentType(author.type);
    const tell = async (noticeReason: AgentNoticeReason, text: string) => {
      // Notices are for people; an agent's refused mention is simply not routed.
      if (!authorIsAgent) await this.runtime.notice(author, { chatId: chat.id, messageId: row.id, agentUsername: agent.username, reason: noticeReason, text });
    };
    if (hop > agentLimits.maxHops) return tell('hop_limit', agentNoticeTexts.hopLimit(agent.username));
    if (authorIsAgent) {
      const limits = this.context.rateLimits;
      if (!(await limits.allow(`agent-hops:chat:${chat.id}`, agentHopsPerChat))) return undefined;
    }
    const inDevRoom = agent.dev_room_id === chat.id;
    const permissions = parsePermissions(chat.agent_permissions);
    const permitted = inDevRoom || (agent.type === 'confab-agent' ? permissions.confab_agents : permissions.developer_agents);
    if (!permitted) {
      return agent.type === 'confab-agent'
        ? tell('confab_agents_off', agentNoticeTexts.confabAgentsOff)
        : tell('developer_agents_off', agentNoticeTexts.developerAgentsOff);
    }
    if (agent.site_wide_available === 0 && !inDevRoom) return tell('not_available', agentNoticeTexts.notAvailable(agent.username));
    // People may always ask them; agents only where the chat's admin allowed it (not told: see tell).
    if (authorIsAgent && agent.type === 'confab-agent' && fileReadingAgents.has(agent.username.toLowerCase()) && !permissions.agents_may_read_files) return undefined;
    const mention = await this.runtime.record(agent, { chatId: chat.id, messageId: row.id, reason, hop });
    if ((await this.runtime.deliver(agent, mention)) === 'waiting') {
      await tell('offline', agentNoticeTexts.offline(agent.username, this.context.config.agentQueueMinutes));
    }
    return undefined;
  }
}
