import { Command } from 'commander';
import { toConfabError } from '@confab/client';
import { httpClient } from '../clients';
import { parseServerUrl } from '../parse';
import { readPassword } from '../password';
import { readSession, writeSession } from '../session';
import { CliError, note, print, runAction } from '../output';

interface LoginOptions {
  server?: string;
  username: string;
  password?: string;
  passwordStdin?: boolean;
  json?: boolean;
}

const defaultServer = 'http://localhost:8090';

/**
 * `confab login --username NAME [--server URL]`: the password is asked for on a terminal (hidden),
 * or read with --password-stdin, --password or CONFAB_PASSWORD. Without --server it signs in to
 * CONFAB_SERVER (or CONFAB_URL), else the server of the saved session, else localhost, and says which.
 */
export function loginCommand(): Command {
  return new Command('login')
    .description('sign in to a Confab server and keep the session')
    .requiredOption('-u, --username <identity>', 'username or e-mail')
    .option('-s, --server <url>', `server URL (default: CONFAB_SERVER or CONFAB_URL, else the saved session's, else ${defaultServer})`)
    .option('--password-stdin', 'read the password from stdin (e.g. printf %s "$PASSWORD" | confab login …)')
    .option('-p, --password <password>', 'the password (visible to others on this machine; prefer the prompt or --password-stdin)')
    .option('--json', 'print JSON')
    .action(async (options: LoginOptions) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const identity = options.username.trim();
        if (identity === '') throw new CliError('--username is empty: give your username or e-mail.');
        const { server, source } = await chooseServer(options.server);
        if (source !== null) note(`Server: ${server} (${source}; --server chooses another).`);
        const password = await readPassword(options, `Password for ${identity} on ${server}: `);
        const client = httpClient(server);
        const user = await client.login(identity, password).catch((error: unknown) => {
          throw loginFailure(error, server);
        });
        await writeSession({ server, token: client.pb.authStore.token, username: user.username });
        print(json, { username: user.username, server }, `Logged in as ${user.username} on ${server}`);
      });
    });
}

/** The server to sign in to, and where it came from when it was not --server (null then). */
async function chooseServer(option: string | undefined): Promise<{ server: string; source: string | null }> {
  if (option !== undefined) return { server: parseServerUrl(option), source: null };
  for (const name of ['CONFAB_SERVER', 'CONFAB_URL'] as const) {
    const value = process.env[name];
    if (value !== undefined && value.trim() !== '') return { server: parseServerUrl(value), source: `from ${name}` };
  }
  const session = await readSession();
  if (session !== null) return { server: session.server, source: 'the server of your saved session' };
  return { server: defaultServer, source: 'the default' };
}

/**
 * Why signing in failed, naming the server: unreachable (and the network's reason), a refused
 * identity or password, or whatever else the server answered.
 */
export function loginFailure(error: unknown, server: string): CliError {
  const failure = toConfabError(error);
  if (failure.status === 0) return new CliError(`Cannot reach ${server}: ${networkReason(error)}. Is the server running, and is the address right?`);
  if (failure.status === 400) return new CliError(`Wrong username or password for ${server}.`);
  if (failure.status === 429) return new CliError(`${server} refused the sign-in: too many attempts. Wait a minute and try again.`);
  return new CliError(`${server} refused the sign-in (HTTP ${failure.status}): ${failure.serverMessage ?? failure.message}`);
}

const networkCodes: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** fetch rejects with a bare "fetch failed"; the reason is a code further down the cause chain. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  let deepest = '';
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message, cause, originalError, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      originalError?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && code !== '') return networkCodes[code] ? `${networkCodes[code]} (${code})` : code;
    if (typeof message === 'string' && message !== '' && message !== 'fetch failed') deepest = message;
    // Node reports a refused connection to a name with several addresses as an AggregateError.
    current = cause ?? originalError ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return deepest || 'no answer';
}
