import { useEffect, useState } from 'react';
import type { AgentSearchHit, ChatRecord } from '@confab/client';
import { agentsOf } from '../../internal/agentsClient';
import { useConfabClient } from '../../provider/hooks';

/** An agent auto-routing may name, as the select offers it. */
export type AutoRouteAgent = Pick<AgentSearchHit, 'id' | 'username' | 'name' | 'agent_type'>;

export interface AutoRoutePermissions {
  confabAgents: boolean;
  developerAgents: boolean;
}

/**
 * Every type name contains 'agent' ('confab-agent', 'developer-agent'), and search matches types
 * (docs/CONTRACTS.md: name, username or type), so this query lists every agent the chat permits.
 */
const everyAgentQuery = 'agent';

/**
 * The agents auto-routing can go to in this chat: every site-wide agent of a type the chat
 * permits (client.agents.search with the chat), plus the user's own agents of permitted types
 * that are available here (client.agents.mine): site-wide, or this chat is their dev room.
 * Sorted by username; [] until loaded, and whatever loaded when one of the two calls fails.
 */
export function useAutoRouteAgents(chat: ChatRecord, permissions: AutoRoutePermissions): AutoRouteAgent[] {
  const client = useConfabClient();
  const [agents, setAgents] = useState<AutoRouteAgent[]>([]);
  const { confabAgents, developerAgents } = permissions;

  useEffect(() => {
    let active = true;
    const allowed = (type: string) => (type === 'confab-agent' ? confabAgents : developerAgents);
    void Promise.allSettled([agentsOf(client).search(everyAgentQuery, { chatId: chat.id }), agentsOf(client).mine()]).then(([found, mine]) => {
      if (!active) return;
      const byUsername = new Map<string, AutoRouteAgent>();
      if (found.status === 'fulfilled') for (const agent of found.value) if (allowed(agent.agent_type)) byUsername.set(agent.username, agent);
      if (mine.status === 'fulfilled') {
        for (const agent of mine.value) {
          const availableHere = agent.site_wide_available || agent.dev_room_id === chat.id;
          if (allowed(agent.agent_type) && availableHere) byUsername.set(agent.username, agent);
        }
      }
      setAgents([...byUsername.values()].sort((left, right) => left.username.localeCompare(right.username)));
    });
    return () => {
      active = false;
    };
  }, [client, chat.id, confabAgents, developerAgents]);

  return agents;
}
