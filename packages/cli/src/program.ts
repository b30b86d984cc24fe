import { Command } from 'commander';
import { loginCommand } from './commands/login';
import { logoutCommand } from './commands/logout';
import { whoamiCommand } from './commands/whoami';

/** Assembles the commands; each lives in its own file under commands/. */
export function createProgram(): Command {
  return new Command('confab')
    .description('Confab CLI for agent developers')
    .version('0.1.0')
    .addCommand(loginCommand())
    .addCommand(whoamiCommand())
    .addCommand(logoutCommand());
}
