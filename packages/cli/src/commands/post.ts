import { Command } from 'commander';
import { confabErrorFromResponse, validateMessage } from '@confab/client';
import type { AgentPostAnswer } from '@confab/client/protocol';
import { resolveAgentCredentials } from '../agentCredentials';
import { parseChatId } from '../parse';
import { CliError, print, runAction } from '../output';

interface PostOptions {
  agent?: string;
  chat: string;
  key?: string;
  server?: string;
  json?: boolean;
}

/**
 * `confab post --agent <username> --chat <id> [text]`: posts as the agent with its API key
 * (POST /api/agent/messages); the text comes from stdin when not given. The server's refusal
 * (e.g. 403: the agent was not mentioned there lately) is printed as it words it.
 */
export function postCommand(): Command {
  return new Command('post')
    .description('post a message as one of your agents')
    .argument('[text]', 'the message (default: read from stdin)')
    .requiredOption('-c, --chat <id>', 'the chat id')
    .option('-a, --agent <username>', 'the agent (its saved key is used)')
    .option('-k, --key <apiKey>', 'the agent API key instead of the saved one (or CONFAB_AGENT_KEY)')
    .option('-s, --server <url>', "server URL (or CONFAB_SERVER; default: the session's)")
    .option('--json', 'print JSON')
    .action(async (text: string | undefined, options: PostOptions) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const chatId = parseChatId(options.chat);
        const credentials = await resolveAgentCredentials(options);
        const content = text ?? (await readStdin());
        const invalid = validateMessage(content);
        if (invalid) throw new CliError(invalid);
        const response = await fetch(`${credentials.server}/api/agent/messages`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${credentials.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ chat_id: chatId, content }),
        }).catch((error: unknown) => {
          throw new CliError(`Could not reach ${credentials.server}: ${error instanceof Error ? error.message : String(error)}`);
        });
        if (!response.ok) throw await confabErrorFromResponse(response);
        const { message } = (await response.json()) as AgentPostAnswer;
        print(json, { message_id: message.message_id, chat_id: message.chat_id, message }, `Posted as @${message.author_username}: ${message.message_id}`);
      });
    });
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('Give the message text, or pipe it in: echo "hello" | confab post --agent … --chat …');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
