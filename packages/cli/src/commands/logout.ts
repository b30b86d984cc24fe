import { Command } from 'commander';
import { clearSession } from '../session';
import { print, runAction } from '../output';

/** `confab logout`: forgets the session (saved agent keys stay: they belong to the agents). */
export function logoutCommand(): Command {
  return new Command('logout')
    .description('forget the stored session')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        await clearSession();
        print(json, { loggedOut: true }, 'Logged out');
      });
    });
}
