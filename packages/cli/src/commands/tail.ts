import { Command } from 'commander';
import type { ChatRecord, ConfabClient } from '@confab/client';
import type { WireMessage } from '@confab/client/protocol';
import { explainSessionError, personClient, webSocketConstructor } from '../clients';
import { parseChatId } from '../parse';
import { requireSession } from '../session';
import { onStopSignal, exitWhenDrained } from '../stop';
import { CliError, note, print, runAction } from '../output';

/**
 * `confab tail --chat <id>`: the chat's new messages as they arrive over the person's realtime
 * socket (the one command that opens it), one line each, NDJSON with --json, until Ctrl+C.
 */
export function tailCommand(): Command {
  return new Command('tail')
    .description("print a chat's new messages as they arrive, until Ctrl+C")
    .requiredOption('-c, --chat <id>', 'the chat id (see `confab chats list`)')
    .option('--json', 'print NDJSON: {"event":"joined",…} then {"event":"message","message":{…}} per message')
    .action(async (options: { chat: string; json?: boolean }) => {
      const json = Boolean(options.json);
      await runAction(json, async () => {
        const chatId = parseChatId(options.chat);
        const client = personClient(await requireSession(), { realtime: { WebSocket: webSocketConstructor() } });
        const chat = await client.chats.get(chatId).catch((error: unknown) => {
          throw explainSessionError(error);
        });
        await follow(client, chat, json);
        exitWhenDrained(0);
      });
    });
}

/** Resolves after Ctrl+C with the socket closed; rejects when following cannot go on. */
async function follow(client: ConfabClient, chat: ChatRecord, json: boolean): Promise<void> {
  const { realtime } = client;
  const stop = onStopSignal();
  const unsubscribe: (() => void)[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      void stop.stopped.then(() => resolve());
      let joined = false;
      unsubscribe.push(
        realtime.on('joined', (frame) => {
          if (frame.chat_id !== chat.id || joined) return;
          joined = true;
          if (json) print(true, { event: 'joined', chat_id: chat.id, chat_name: chat.name }, '');
          else note(`Following "${chat.name}": new messages appear below (Ctrl+C to stop).`);
        }),
        realtime.on('new_message', ({ message }) => {
          if (message.chat_id === chat.id) print(json, { event: 'message', message }, messageLine(message));
        }),
        realtime.on('error', (frame) => {
          if (frame.code === 'not_a_participant' && frame.ref === chat.id) reject(new CliError(`You are not a participant of "${chat.name}".`));
        }),
        realtime.on('chat_removed', ({ chat_id }) => {
          if (chat_id === chat.id) reject(new CliError(`You were removed from "${chat.name}".`));
        }),
        realtime.on('chat_deleted', ({ chat_id }) => {
          if (chat_id === chat.id) reject(new CliError(`"${chat.name}" was deleted.`));
        }),
        realtime.on('authError', () => reject(new CliError('The server refused the session. Run `confab login` again.'))),
        realtime.on('reconnecting', ({ delayMs }) => {
          if (!json) note(`Connection lost; reconnecting in ${Math.round(delayMs / 1000)} s…`);
        }),
        realtime.on('state', ({ state }) => {
          if (state === 'closed') reject(new CliError(`Lost the connection to ${client.baseUrl} and could not reconnect.`));
        }),
      );
      realtime.join(chat.id);
      realtime.connect();
    });
  } finally {
    for (const off of unsubscribe) off();
    stop.dispose();
    realtime.close();
  }
}

/** `12:04:05 @alice: text`, continuation lines indented under the text. */
function messageLine(message: WireMessage): string {
  const at = new Date(message.created_at.replace(' ', 'T'));
  const time = Number.isNaN(at.getTime()) ? '' : `${at.toTimeString().slice(0, 8)} `;
  const author = `@${message.author_username}${message.is_agent ? ' (agent)' : ''}`;
  const prefix = `${time}${author}: `;
  return prefix + message.content.replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
}
