/**
 * The API keys `confab agents create` and `rotate-key` saved for `confab run` and `confab post`:
 * `<config dir>/agents/<username>.json`, mode 0600. A key is printed once, when it is made; after
 * that it is only read from here (or from --key / CONFAB_AGENT_KEY).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAgentUsername } from '@confab/client/rules';
import { errorMessage } from './output';
import { writePrivateFile } from './privateFiles';
import { configDir } from './session';

export interface SavedAgentKey {
  username: string;
  agentId: string;
  server: string;
  apiKey: string;
}

const agentsDir = () => join(configDir(), 'agents');

/** Where a key is kept; the username is checked first so it can never leave the directory. */
export function agentKeyFile(username: string): string {
  if (!isAgentUsername(username)) throw new Error(`not an agent username: ${username}`);
  return join(agentsDir(), `${username}.json`);
}

export async function saveAgentKey(saved: SavedAgentKey): Promise<string> {
  const file = agentKeyFile(saved.username);
  await writePrivateFile(configDir(), file, `${JSON.stringify(saved, null, 2)}\n`);
  return file;
}

/**
 * Saves a key just made, or answers why it could not: the key exists only in this answer, so the
 * command shows it either way (and exits 1 when it was not saved).
 */
export async function trySaveAgentKey(saved: SavedAgentKey): Promise<{ file: string; error: null } | { file: null; error: string }> {
  try {
    return { file: await saveAgentKey(saved), error: null };
  } catch (error) {
    return { file: null, error: errorMessage(error) };
  }
}

export async function readAgentKey(username: string): Promise<SavedAgentKey | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(agentKeyFile(username), 'utf8'));
    if (!parsed || typeof parsed !== 'object') return null;
    const { agentId, server, apiKey } = parsed as Record<string, unknown>;
    if (typeof agentId !== 'string' || typeof server !== 'string' || typeof apiKey !== 'string') return null;
    return { username, agentId, server, apiKey };
  } catch {
    return null;
  }
}

export async function removeAgentKey(username: string): Promise<void> {
  await rm(agentKeyFile(username), { force: true });
}

/** The usernames whose keys are saved, sorted. */
export async function savedAgentUsernames(): Promise<string[]> {
  try {
    const names = await readdir(agentsDir());
    return names
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .filter(isAgentUsername)
      .sort();
  } catch {
    return [];
  }
}
