/**
 * Which agent `confab run` and `confab post` act as, with which key, on which server:
 * - key: --key, else CONFAB_AGENT_KEY, else the key saved for --agent (by `agents create` or
 *   `rotate-key`); with neither --agent nor a key, the one saved key when there is exactly one;
 * - server: --server, else CONFAB_SERVER, else the session's, else the one the key was saved for.
 */
import { readAgentKey, savedAgentUsernames } from './agentKeys';
import type { SavedAgentKey } from './agentKeys';
import { parseAgentUsername, parseApiKey, parseServerUrl } from './parse';
import { readSession } from './session';
import { CliError } from './output';

export interface AgentCredentialOptions {
  agent?: string;
  key?: string;
  server?: string;
}

export interface AgentCredentials {
  apiKey: string;
  server: string;
  /** The agent asked for (--agent or the one saved key); null when only a key was given. */
  username: string | null;
}

export async function resolveAgentCredentials(options: AgentCredentialOptions): Promise<AgentCredentials> {
  const givenKey = options.key !== undefined ? parseApiKey(options.key, '--key') : keyFromEnvironment();
  let username = options.agent === undefined ? null : parseAgentUsername(options.agent);
  let saved: SavedAgentKey | null = null;
  if (givenKey === null) {
    username ??= await theOnlySavedAgent();
    saved = await readAgentKey(username);
    if (saved === null) {
      throw new CliError(
        `No saved key for @${username}. Create the agent with \`confab agents create\`, save a new key with \`confab agents rotate-key ${username}\`, or pass the key in CONFAB_AGENT_KEY.`,
      );
    }
  }
  const server = await resolveServer(options.server, saved);
  return { apiKey: givenKey ?? (saved as SavedAgentKey).apiKey, server, username };
}

function keyFromEnvironment(): string | null {
  const value = process.env.CONFAB_AGENT_KEY;
  return value === undefined || value.trim() === '' ? null : parseApiKey(value, 'CONFAB_AGENT_KEY');
}

async function theOnlySavedAgent(): Promise<string> {
  const usernames = await savedAgentUsernames();
  if (usernames.length === 1 && usernames[0] !== undefined) return usernames[0];
  if (usernames.length === 0) {
    throw new CliError('Which agent? Pass --agent <username> (its key saved by `confab agents create`) or set CONFAB_AGENT_KEY.');
  }
  throw new CliError(`Which agent? Pass --agent with one of: ${usernames.join(', ')}.`);
}

async function resolveServer(option: string | undefined, saved: SavedAgentKey | null): Promise<string> {
  const given = option ?? process.env.CONFAB_SERVER;
  if (given !== undefined && given.trim() !== '') return parseServerUrl(given);
  const session = await readSession();
  const server = session?.server ?? saved?.server;
  if (server === undefined) throw new CliError('Which server? Pass --server <url>, set CONFAB_SERVER, or run `confab login` first.');
  return server;
}
