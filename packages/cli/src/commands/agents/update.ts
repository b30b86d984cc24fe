import { Command, Option } from 'commander';
import { findOwnAgent } from '../../agentLookup';
import { explainSessionError, personClient } from '../../clients';
import { parseAgentUsername, parseDescription } from '../../parse';
import { requireSession } from '../../session';
import { CliError, print, runAction } from '../../output';
import { availability } from './list';

interface UpdateOptions {
  description?: string;
  siteWide?: boolean;
  devRoomOnly?: boolean;
  json?: boolean;
}

/** `confab agents update <username>`: its description and where it can be mentioned. */
export function agentsUpdateCommand(): Command {
  return new Command('update')
    .description("change an agent's description or availability")
    .argument('<username>', 'the agent, e.g. echo_bot')
    .option('-d, --description <text>', 'what the agent does (≤ 500 characters)')
    .addOption(new Option('--site-wide', 'reachable in every chat that allows developer agents').conflicts('devRoomOnly'))
    .addOption(new Option('--dev-room-only', 'reachable only in its dev room').conflicts('siteWide'))
    .option('--json', 'print JSON')
    .action(async (rawUsername: string, options: UpdateOptions) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const username = parseAgentUsername(rawUsername);
        const description = options.description === undefined ? undefined : parseDescription(options.description);
        const siteWideAvailable = options.siteWide ? true : options.devRoomOnly ? false : undefined;
        if (description === undefined && siteWideAvailable === undefined) {
          throw new CliError('Nothing to update: give --description, --site-wide or --dev-room-only.');
        }
        const client = personClient(await requireSession());
        const updated = await findOwnAgent(client, username)
          .then((agent) =>
            client.agents.update(agent.id, {
              ...(description === undefined ? {} : { description }),
              ...(siteWideAvailable === undefined ? {} : { siteWideAvailable }),
            }),
          )
          .catch((error: unknown) => {
            throw explainSessionError(error);
          });
        print(json, { agent: updated }, `Updated @${updated.username}: ${availability(updated)}${updated.description ? `, "${updated.description}"` : ''}`);
      });
    });
}
