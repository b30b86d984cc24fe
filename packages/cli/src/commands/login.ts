import { Command } from 'commander';
import { validateLogin } from '@confab/client';
import { httpClient } from '../clients';
import { parseServerUrl } from '../parse';
import { writeSession } from '../session';
import { CliError, print, runAction } from '../output';

/** `confab login --server URL --username NAME` (password from --password or CONFAB_PASSWORD). */
export function loginCommand(): Command {
  return new Command('login')
    .description('sign in to a Confab server and keep the session')
    .option('-s, --server <url>', 'server URL (or CONFAB_SERVER)', process.env.CONFAB_SERVER ?? 'http://localhost:8090')
    .requiredOption('-u, --username <identity>', 'username or e-mail')
    .option('-p, --password <password>', 'password (or set CONFAB_PASSWORD)')
    .option('--json', 'print JSON')
    .action(async (options: { server: string; username: string; password?: string; json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const server = parseServerUrl(options.server);
        const password = options.password ?? process.env.CONFAB_PASSWORD ?? '';
        const invalid = validateLogin({ username: options.username, password });
        if (invalid) throw new CliError(invalid);
        const client = httpClient(server);
        const user = await client.login(options.username, password);
        await writeSession({ server, token: client.pb.authStore.token, username: user.username });
        print(json, { username: user.username, server }, `Logged in as ${user.username} on ${server}`);
      });
    });
}
