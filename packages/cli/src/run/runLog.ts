/**
 * What `confab run` prints: one line per event, for a person (`→ @alice in "Chat": …`,
 * `← replied (123 chars)`) or, with --json, one JSON object per line (NDJSON) with an `event` field.
 * Failures go to stderr in text mode; in NDJSON everything is on stdout.
 */
import type { AgentIdentity, Mention, WireMessage } from '@confab/client/agent';

/** A mention's text on one line, shortened: the log is for following along, not for reading everything. */
const previewLength = 120;

export class RunLog {
  constructor(private readonly json: boolean) {}

  connecting(server: string, handler: string): void {
    this.write({ event: 'connecting', server, handler }, `Connecting to ${server} with ${handler}…`);
  }

  connected(identity: AgentIdentity, server: string, again: boolean): void {
    this.write(
      { event: 'connected', agent: identity.username, agent_id: identity.id, dev_room_id: identity.dev_room_id, server },
      again ? `Reconnected as @${identity.username}.` : `Connected as @${identity.username}. Mention it in a chat; Ctrl+C stops.`,
    );
  }

  disconnected(code: number | null, retryInMs: number | null): void {
    if (retryInMs === null) return; // the SDK stopped for good: an error line says why
    this.write({ event: 'disconnected', code, retry_in_ms: retryInMs }, `Connection lost; retrying in ${Math.ceil(retryInMs / 1000)} s…`);
  }

  mention(mention: Mention): void {
    const content = preview(mention.content);
    this.write(
      {
        event: 'mention',
        mention_id: mention.mention_id,
        chat_id: mention.chat_id,
        chat_name: mention.chat_name,
        author: mention.author_username,
        content: mention.content,
      },
      `→ @${mention.author_username} in "${mention.chat_name}": ${content}`,
    );
  }

  reply(mention: Mention, message: WireMessage, streamed: boolean): void {
    const chars = message.content.length;
    this.write(
      { event: 'reply', mention_id: mention.mention_id, chat_id: message.chat_id, message_id: message.message_id, chars, streamed },
      `← ${streamed ? 'streamed' : 'replied'} (${chars} chars)`,
    );
  }

  reloaded(handler: string): void {
    this.write({ event: 'reloaded', handler }, `↻ reloaded ${handler}`);
  }

  /** `stack`: a failed handler's, so the developer sees where in their code it broke. */
  error(message: string, mention?: Mention, stack?: string): void {
    if (this.json) {
      this.write({ event: 'error', message, ...(mention === undefined ? {} : { mention_id: mention.mention_id }), ...(stack === undefined ? {} : { stack }) }, '');
    } else {
      process.stderr.write(`error: ${message}\n${stack === undefined ? '' : `${stack}\n`}`);
    }
  }

  stopped(signal: string): void {
    this.write({ event: 'stopped', signal }, 'Stopped.');
  }

  private write(value: Record<string, unknown>, text: string): void {
    process.stdout.write(this.json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  }
}

function preview(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > previewLength ? `${line.slice(0, previewLength - 1)}…` : line;
}
