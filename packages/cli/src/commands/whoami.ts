import { Command } from 'commander';
import { explainSessionError, personClient } from '../clients';
import { requireSession, writeSession } from '../session';
import { print, runAction } from '../output';

/** `confab whoami`: refreshes the stored session against the server and prints the account. */
export function whoamiCommand(): Command {
  return new Command('whoami')
    .description('show the signed-in account')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const session = await requireSession();
        const client = personClient(session);
        const { token, record } = await client.pb
          .collection('users')
          .authRefresh()
          .catch((error: unknown) => {
            throw explainSessionError(error);
          });
        const username = String(record['username'] ?? session.username);
        await writeSession({ ...session, token, username });
        print(json, { username, id: record.id, server: session.server }, `${username} on ${session.server}`);
      });
    });
}
