import { Command } from 'commander';
import { findOwnAgent } from '../../agentLookup';
import { removeAgentKey } from '../../agentKeys';
import { explainSessionError, personClient } from '../../clients';
import { parseAgentUsername } from '../../parse';
import { requireSession } from '../../session';
import { CliError, print, runAction } from '../../output';

/** `confab agents delete <username> --yes`: refuses without --yes, as there is no undo. */
export function agentsDeleteCommand(): Command {
  return new Command('delete')
    .description('delete an agent (its key stops working; its dev room stays yours)')
    .argument('<username>', 'the agent, e.g. echo_bot')
    .option('-y, --yes', 'confirm: deleting cannot be undone')
    .option('--json', 'print JSON')
    .action(async (rawUsername: string, options: { yes?: boolean; json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const username = parseAgentUsername(rawUsername);
        if (!options.yes) {
          throw new CliError(`Deleting @${username} cannot be undone: its key stops working and its connections close. Run again with --yes to confirm.`);
        }
        const client = personClient(await requireSession());
        const agent = await findOwnAgent(client, username)
          .then(async (found) => {
            await client.agents.remove(found.id);
            return found;
          })
          .catch((error: unknown) => {
            throw explainSessionError(error);
          });
        await removeAgentKey(agent.username);
        print(json, { deleted: agent.username, id: agent.id }, `Deleted @${agent.username}`);
      });
    });
}
