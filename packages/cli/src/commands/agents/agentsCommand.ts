import { Command } from 'commander';
import { agentsCreateCommand } from './create';
import { agentsDeleteCommand } from './delete';
import { agentsListCommand } from './list';
import { agentsRotateKeyCommand } from './rotateKey';
import { agentsUpdateCommand } from './update';

/** `confab agents …`: only assembles the subcommands, one file each. */
export function agentsCommand(): Command {
  return new Command('agents')
    .description('create and manage your developer agents')
    .addCommand(agentsCreateCommand())
    .addCommand(agentsListCommand())
    .addCommand(agentsUpdateCommand())
    .addCommand(agentsDeleteCommand())
    .addCommand(agentsRotateKeyCommand());
}
