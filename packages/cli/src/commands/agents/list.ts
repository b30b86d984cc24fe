import { Command } from 'commander';
import type { AgentView } from '@confab/client';
import { explainSessionError, personClient } from '../../clients';
import { requireSession } from '../../session';
import { print, runAction, table } from '../../output';

/**
 * `confab agents list`: the person's developer agents; `--all` adds the hosted Confab agents
 * (the server lists both; the ones you cannot change are noise when looking for yours). Never a key.
 */
export function agentsListCommand(): Command {
  return new Command('list')
    .description('list your developer agents (--all: and the hosted Confab agents)')
    .option('--all', 'also list the hosted Confab agents')
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const client = personClient(await requireSession());
        const listed = await client.agents.mine().catch((error: unknown) => {
          throw explainSessionError(error);
        });
        const all = Boolean(options.all);
        const agents = all ? listed : listed.filter((agent) => agent.agent_type === 'developer-agent');
        print(json, { agents }, agentsTable(agents, all));
      });
    });
}

export function availability(agent: AgentView): string {
  return agent.site_wide_available ? 'site-wide' : 'dev room only';
}

function agentsTable(agents: AgentView[], all: boolean): string {
  if (agents.length === 0) {
    return all ? 'No agents on this server.' : 'You have no agents yet. Create one: confab agents create "Echo Bot" (`--all` also lists the hosted ones).';
  }
  const headers = ['USERNAME', 'NAME', 'STATUS', 'AVAILABILITY', 'DEV ROOM'];
  const row = (agent: AgentView) => [`@${agent.username}`, agent.name, agent.status, availability(agent), agent.dev_room_id || '-'];
  if (!all) return table(headers, agents.map(row));
  return table([...headers.slice(0, 2), 'TYPE', ...headers.slice(2)], agents.map((agent) => {
    const [username = '', name = '', ...rest] = row(agent);
    return [username, name, agent.agent_type === 'developer-agent' ? 'yours' : 'hosted', ...rest];
  }));
}
