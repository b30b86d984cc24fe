import { Command } from 'commander';
import type { AgentView } from '@confab/client';
import { usernameFromName } from '@confab/client/rules';
import { trySaveAgentKey } from '../../agentKeys';
import { explainSessionError, personClient } from '../../clients';
import { parseAgentName, parseAgentUsername, parseDescription } from '../../parse';
import { requireSession } from '../../session';
import { CliError, note, print, runAction } from '../../output';

interface CreateOptions {
  description?: string;
  username?: string;
  devRoomOnly?: boolean;
  json?: boolean;
}

/**
 * `confab agents create <name>`: prints the new agent's API key this once, with a warning, and
 * saves it (0600) for `confab run` and `confab post`. A key that could not be saved is still
 * printed (it exists only now), and the command exits 1.
 *
 * Running it again for an agent the person already has is refused with what to do instead: the
 * server would otherwise quietly make a second agent (`echo_bot_2`), which is rarely what a
 * second run of the same command means (usually: "I lost the key").
 */
export function agentsCreateCommand(): Command {
  return new Command('create')
    .description('create a developer agent and save its API key for `confab run`')
    .argument('<name>', 'display name, e.g. "Echo Bot"')
    .option('-d, --description <text>', 'what the agent does (≤ 500 characters)')
    .option('-u, --username <username>', 'its @username (default: derived from the name)')
    .option('--dev-room-only', 'reachable only in its dev room, not site-wide')
    .option('--json', 'print JSON')
    .action(async (rawName: string, options: CreateOptions) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const name = parseAgentName(rawName);
        const description = options.description === undefined ? undefined : parseDescription(options.description);
        const username = options.username === undefined ? undefined : parseAgentUsername(options.username);
        const session = await requireSession();
        const client = personClient(session);
        const mine = await client.agents.mine().catch((error: unknown) => {
          throw explainSessionError(error);
        });
        const existing = sameAgent(mine, name, username);
        if (existing !== undefined) {
          throw new CliError(
            `You already have ${existing.name} (@${existing.username}). To make another agent, give it its own username: confab agents create "${name}" --username ${existing.username.slice(0, 28)}_2. For a new key for @${existing.username}: confab agents rotate-key ${existing.username}.`,
          );
        }
        const { agent, api_key: apiKey } = await client.agents
          .create({
            name,
            ...(description === undefined ? {} : { description }),
            ...(username === undefined ? {} : { username }),
            siteWideAvailable: !options.devRoomOnly,
          })
          .catch((error: unknown) => {
            throw explainSessionError(error);
          });
        const saved = await trySaveAgentKey({ username: agent.username, agentId: agent.id, server: session.server, apiKey });
        print(
          json,
          { agent, api_key: apiKey, key_file: saved.file, ...(saved.error === null ? {} : { key_error: saved.error }) },
          [
            `Created @${agent.username} (${agent.name}).`,
            '',
            `  API key: ${apiKey}`,
            '',
            saved.error === null ? `Saved to ${saved.file} for \`confab run --agent ${agent.username}\`.` : `Not saved: ${saved.error}`,
          ].join('\n'),
        );
        note('Keep this key secret: it is shown only now. Anyone holding it can act as the agent (`confab agents rotate-key` replaces it).');
        if (saved.error !== null) process.exitCode = 1;
      });
    });
}

/**
 * The person's own developer agent that this create would duplicate: the one with the username
 * asked for, or, without --username, one with the same name or the username the name gives.
 */
function sameAgent(mine: AgentView[], name: string, username: string | undefined): AgentView | undefined {
  const own = mine.filter((agent) => agent.agent_type === 'developer-agent');
  if (username !== undefined) return own.find((agent) => agent.username === username);
  const derived = usernameFromName(name);
  return own.find((agent) => agent.name.trim().toLowerCase() === name.toLowerCase() || agent.username === derived);
}
