/**
 * Where the CLI keeps its session: `$CONFAB_CONFIG_DIR/session.json` (default ~/.config/confab),
 * readable only by the user because it holds an auth token.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

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

export async function writeSession(session: Session): Promise<void> {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  await writeFile(sessionFile(), JSON.stringify(session, null, 2), { mode: 0o600 });
}

export async function clearSession(): Promise<void> {
  await rm(sessionFile(), { force: true });
}
