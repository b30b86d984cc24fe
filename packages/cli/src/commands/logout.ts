import { Command } from 'commander';
import { clearSession } from '../session';
import { print } from '../output';

export function logoutCommand(): Command {
  return new Command('logout')
    .description('forget the stored session')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await clearSession();
      print(Boolean(options.json), { loggedOut: true }, 'Logged out');
    });
}
