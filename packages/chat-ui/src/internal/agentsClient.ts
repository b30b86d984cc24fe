import { constants, type AgentSearchHit } from '@confab/client';
import type { ConfabUiClient } from '../provider/clientInterface';

/*
 * The seam chat-ui reads the agent surface of @confab/client through (docs/CONTRACTS.md,
 * Agents): client.agents, and the small display rules the agent parts share.
 */

export const agentsOf = (client: ConfabUiClient) => client.agents;

/** docs/PRODUCT.md §9: descriptions in the autocomplete are cut to 60 characters (the ellipsis included). */
export function cutAgentDescription(description: string, maxLength: number = constants.agentAutocomplete.descriptionMaxLength): string {
  const text = description.trim().replace(/\s+/g, ' ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1).trimEnd()}…` : text;
}

/** 'Confab agent' or 'Developer agent', for an agent_type. */
export function agentTypeLabel(agentType: AgentSearchHit['agent_type'] | string): string {
  return agentType === 'confab-agent' ? 'Confab agent' : 'Developer agent';
}

/**
 * The first message a chat started from the agent search sends (docs/PRODUCT.md §7): @drops gets
 * the example request of docs/PRODUCT.md §7; any other agent just its mention, for the person to
 * finish.
 */
export function firstMessageFor(agent: Pick<AgentSearchHit, 'username'>): string {
  return agent.username === 'drops' ? '@drops create a summary drop about our recent discussion' : `@${agent.username} `;
}
