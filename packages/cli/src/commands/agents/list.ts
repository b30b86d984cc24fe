import { Command } from 'commander';
import type { AgentView } from '@confab/client';
import { explainSessionError, personClient } from '../../clients';
import { requireSession } from '../../session';
import { print, runAction, table } from '../../output';

/** `confab agents list`: the person's developer agents, then the hosted ones. Never a key. */
export function agentsListCommand(): Command {
  return new Command('list')
    .description('list your developer agents and the hosted Confab agents')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const client = personClient(await requireSession());
        const agents = await client.agents.mine().catch((error: unknown) => {
          throw explainSessionError(error);
        });
        print(json, { agents }, agentsTable(agents));
      });
    });
}

export function availability(agent: AgentView): string {
  return agent.site_wide_available ? 'site-wide' : 'dev room only';
}

function agentsTable(agents: AgentView[]): string {
  if (agents.length === 0) return 'No agents yet. Create one: confab agents create "Echo Bot"';
  return table(
    ['USERNAME', 'NAME', 'STATUS', 'AVAILABILITY', 'DEV ROOM'],
    agents.map((agent) => [`@${agent.username}`, agent.name, agent.status, availability(agent), agent.dev_room_id || '-']),
  );
}
