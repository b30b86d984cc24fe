import type { AgentSearchHit } from '@confab/client';

/*
 * Navigation state is whatever history holds (a reload, another tab, a hand-made entry): it is
 * read through these guards, never trusted as typed.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** /chat/new's `preselectedAgent` (docs/PRODUCT.md §2), when the state carries a well-formed one. */
export function preselectedAgentFrom(state: unknown): AgentSearchHit | null {
  if (!isRecord(state) || !isRecord(state['preselectedAgent'])) return null;
  const agent = state['preselectedAgent'];
  const text = (key: string) => (typeof agent[key] === 'string' ? (agent[key] as string) : null);
  const id = text('id');
  const username = text('username');
  const agentType = text('agent_type');
  if (id === null || username === null || (agentType !== 'confab-agent' && agentType !== 'developer-agent')) return null;
  return {
    id,
    username,
    name: text('name') ?? username,
    agent_type: agentType,
    description: text('description') ?? '',
    status: agent['status'] === 'online' || agent['status'] === 'offline' || agent['status'] === 'active' ? agent['status'] : 'offline',
    created_by: text('created_by') ?? '',
  };
}

/** /chat/{id}'s `firstMessage`: sent once when a chat started with an agent opens. */
export function firstMessageFrom(state: unknown): string | undefined {
  if (!isRecord(state) || typeof state['firstMessage'] !== 'string') return undefined;
  const message = state['firstMessage'].trim();
  return message === '' ? undefined : message;
}
