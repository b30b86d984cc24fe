/**
 * Where the CLI keeps its session: `$CONFAB_CONFIG_DIR/session.json` (default ~/.config/confab),
 * readable only by the user because it holds an auth token (written by privateFiles.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './output';
import { writePrivateFile } from './privateFiles';

export interface Session {
  server: string;
  token: string;
  username: string;
}

export function configDir(): string {
  return process.env.CONFAB_CONFIG_DIR ?? join(homedir(), '.config', 'confab');
}

const sessionFile = () => join(configDir(), 'session.json');

export async function readSession(): Promise<Session | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(sessionFile(), 'utf8'));
    if (!parsed || typeof parsed !== 'object') return null;
    const { server, token, username } = parsed as Record<string, unknown>;
    if (typeof server !== 'string' || typeof token !== 'string' || typeof username !== 'string') return null;
    return { server, token, username };
  } catch {
    return null;
  }
}

/** The stored session, or a clear refusal for commands that act as the signed-in person. */
export async function requireSession(): Promise<Session> {
  const session = await readSession();
  if (!session) throw new CliError('Not logged in. Run `confab login` first.');
  return session;
}

export async function writeSession(session: Session): Promise<void> {
  await writePrivateFile(configDir(), sessionFile(), JSON.stringify(session, null, 2));
}

export async function clearSession(): Promise<void> {
  await rm(sessionFile(), { force: true });
}
