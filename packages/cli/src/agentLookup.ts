import type { AgentView, ConfabClient } from '@confab/client';
import { CliError } from './output';

/**
 * One of the person's own developer agents by @username, through GET /api/agents/mine (the
 * endpoints take ids; people know their agents by username).
 */
export async function findOwnAgent(client: ConfabClient, username: string): Promise<AgentView> {
  const agents = await client.agents.mine();
  const agent = agents.find((candidate) => candidate.username.toLowerCase() === username);
  if (agent === undefined) {
    throw new CliError(`You have no agent @${username}. \`confab agents list\` shows yours.`);
  }
  if (agent.agent_type !== 'developer-agent') {
    throw new CliError(`@${username} is a hosted Confab agent: it is not yours to change.`);
  }
  return agent;
}
