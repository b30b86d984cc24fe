import { Command } from 'commander';
import { explainSessionError, personClient } from '../../clients';
import { requireSession } from '../../session';
import { print, runAction, table } from '../../output';

/** `confab chats list`: the signed-in person's chats (the record API), newest activity first. */
export function chatsListCommand(): Command {
  return new Command('list')
    .description('list your chats (ids for `confab tail` and `confab post`)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const client = personClient(await requireSession());
        const chats = await client.chats.list().catch((error: unknown) => {
          throw explainSessionError(error);
        });
        const rows = chats.map((chat) => ({ id: chat.id, name: chat.name, participants: chat.participants.length }));
        const text =
          rows.length === 0
            ? 'No chats yet.'
            : table(
                ['ID', 'PARTICIPANTS', 'NAME'],
                rows.map((row) => [row.id, String(row.participants), row.name]),
              );
        print(json, { chats: rows }, text);
      });
    });
}
