import { Command } from 'commander';
import { chatsListCommand } from './list';

/** `confab chats …`: only assembles the subcommands. */
export function chatsCommand(): Command {
  return new Command('chats').description('your chats').addCommand(chatsListCommand());
}
