import { Command } from 'commander';
import { agentsCommand } from './commands/agents/agentsCommand';
import { chatsCommand } from './commands/chats/chatsCommand';
import { initCommand } from './commands/init';
import { loginCommand } from './commands/login';
import { logoutCommand } from './commands/logout';
import { postCommand } from './commands/post';
import { runCommand } from './commands/run';
import { tailCommand } from './commands/tail';
import { whoamiCommand } from './commands/whoami';
import { versions } from './versions';

/** Assembles the commands; each lives in its own file under commands/. */
export function createProgram(): Command {
  return new Command('confab')
    .description('Confab CLI for agent developers')
    .version(versions.cli)
    .addCommand(loginCommand())
    .addCommand(whoamiCommand())
    .addCommand(logoutCommand())
    .addCommand(agentsCommand())
    .addCommand(initCommand())
    .addCommand(runCommand())
    .addCommand(postCommand())
    .addCommand(chatsCommand())
    .addCommand(tailCommand());
}
