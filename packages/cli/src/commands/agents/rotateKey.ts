import { Command } from 'commander';
import { findOwnAgent } from '../../agentLookup';
import { trySaveAgentKey } from '../../agentKeys';
import { explainSessionError, personClient } from '../../clients';
import { parseAgentUsername } from '../../parse';
import { requireSession } from '../../session';
import { note, print, runAction } from '../../output';

/**
 * `confab agents rotate-key <username>`: a new key, printed once and saved; the old one stops at
 * once. A key that could not be saved is still printed, and the command exits 1.
 */
export function agentsRotateKeyCommand(): Command {
  return new Command('rotate-key')
    .description("replace an agent's API key (running agents with the old key are disconnected)")
    .argument('<username>', 'the agent, e.g. echo_bot')
    .option('--json', 'print JSON')
    .action(async (rawUsername: string, options: { json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const username = parseAgentUsername(rawUsername);
        const session = await requireSession();
        const client = personClient(session);
        const { agent, api_key: apiKey } = await findOwnAgent(client, username)
          .then((found) => client.agents.rotateKey(found.id))
          .catch((error: unknown) => {
            throw explainSessionError(error);
          });
        const saved = await trySaveAgentKey({ username: agent.username, agentId: agent.id, server: session.server, apiKey });
        print(
          json,
          { agent, api_key: apiKey, key_file: saved.file, ...(saved.error === null ? {} : { key_error: saved.error }) },
          [
            `New key for @${agent.username}; the old one no longer works.`,
            '',
            `  API key: ${apiKey}`,
            '',
            saved.error === null ? `Saved to ${saved.file}.` : `Not saved: ${saved.error}`,
          ].join('\n'),
        );
        note('Keep this key secret: it is shown only now.');
        if (saved.error !== null) process.exitCode = 1;
      });
    });
}
