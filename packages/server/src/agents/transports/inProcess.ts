import { randomBytes } from 'node:crypto';
import type { Mention, WireMessage } from '@confab/client/protocol';
import type { UserRow } from '../../store/repositories/users';
import type { AgentReplyChannel } from '../runtime';

/** What a hosted agent's handler answers with: the same shape as the SDK's `Reply`. */
export interface InProcessReply {
  send(content: string): Promise<WireMessage>;
  stream(): InProcessReplyStream;
  status(text: string): void;
}

export interface InProcessReplyStream {
  readonly id: string;
  write(text: string): void;
  /** `cutOff`: the reply broke off before its end; it is stored with what it holds, marked so. */
  end(options?: { cutOff?: boolean }): Promise<WireMessage | undefined>;
}

/** A hosted agent's code: `async (mention, reply) => …`, the contract every agent shares. */
export type HostedAgentHandler = (mention: Mention, reply: InProcessReply) => Promise<void> | void;

/**
 * Ends a reply with `text`: after what a started stream holds (marked cut off when `cutOff`: the
 * text says why it broke off), else as a message of its own.
 */
export async function finishReply(reply: InProcessReply, stream: InProcessReplyStream | undefined, text: string, options: { cutOff?: boolean } = {}): Promise<void> {
  if (stream !== undefined) {
    stream.write(`\n\n${text}`);
    await stream.end(options);
  } else {
    await reply.send(text);
  }
}

/**
 * The in-process transport: a hosted agent's handler gets the mention and a reply bound to it,
 * whose calls go straight to the runtime's reply channel, the one the socket transport uses for
 * developer agents. Writes of a stream are applied in order; `end` waits for them.
 */
export function inProcessReply(channel: AgentReplyChannel, agent: UserRow, mention: Mention, onError: (error: unknown) => void): InProcessReply {
  const chatId = mention.chat_id;
  const mentionId = mention.mention_id;
  // Hosted agents answer in the thread of the message that asked, as the SDK's reply.send does (docs/CONTRACTS.md, Replies).
  const replyTo = mention.message_id;
  // A reply or a stream clears the status line; it starts after the status writes before it, so
  // a status set just before never lands after the clear and lingers.
  let statusWritten: Promise<void> = Promise.resolve();
  return {
    send: async (content) => {
      await statusWritten;
      return channel.post(agent, { chatId, content, mentionId, replyTo });
    },
    status(text) {
      statusWritten = statusWritten.then(() => channel.setStatus(agent, chatId, text)).catch(onError);
    },
    stream() {
      const id = `hosted-${randomBytes(8).toString('hex')}`;
      let pending: Promise<void> = statusWritten.then(() => channel.startStream(agent, { chatId, streamId: id, mentionId, replyTo }));
      return {
        id,
        write(text) {
          pending = pending.then(() => channel.appendStream(agent, id, text));
          pending.catch(onError);
        },
        async end(options) {
          await pending;
          return channel.endStream(agent, id, options);
        },
      };
    },
  };
}
