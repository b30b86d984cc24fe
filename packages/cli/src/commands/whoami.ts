import { Command } from 'commander';
import { ConfabClient } from '@confab/client';
import { readSession, writeSession } from '../session';
import { CliError, fail, print } from '../output';

/** `confab whoami`: refreshes the stored session against the server and prints the account. */
export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('show the signed-in account')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = Boolean(options.json);
      try {
        const session = await readSession();
        if (!session) throw new CliError('Not logged in. Run `confab login` first.');
        const client = new ConfabClient({ baseUrl: session.server });
        client.pb.authStore.save(session.token, null);
        const { token, record } = await client.pb.collection('users').authRefresh();
        const username = String(record['username'] ?? session.username);
        await writeSession({ ...session, token, username });
        print(json, { username, id: record.id, server: session.server }, `${username} on ${session.server}`);
      } catch (error) {
        fail(error, json);
      }
    });
}
