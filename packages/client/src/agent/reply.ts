import { agentLimits, maxMessageLength } from '../protocol';
import type { AddReactionFrame, AgentStatusFrame, EditMessageFrame, Mention, ReactionSummary, SendMessageFrame, StreamStartFrame, WireMessage } from '../protocol';
import { validateReactionEmoji } from '../validation/reactions';
import { AgentError, agentErrorCodes } from './errors';
import type { Reply, ReplyOptions, ReplyStream } from './types';

/**
 * Where a Reply's frames go: the live socket (liveChannel.ts) or simulateMention's recorder.
 * The checks every reply gets (empty, too long, written after end) live in createReply, so a
 * simulated handler meets the same ones.
 */
export interface ReplyChannel {
  /** Resolves with the stored message (new_message echoing client_id). */
  send(frame: SendMessageFrame & { client_id: string }): Promise<WireMessage>;
  startStream(frame: StreamStartFrame): void;
  appendStream(streamId: string, text: string): void;
  /**
   * Sends stream_end. With text written, resolves with the stored message (new_message with this
   * stream_id); an empty stream stores nothing, so it resolves with null at once.
   */
  endStream(streamId: string, empty: boolean): Promise<WireMessage | null>;
  status(frame: AgentStatusFrame): void;
  /** Resolves with the message as edited (message_updated for its id). */
  edit(frame: EditMessageFrame): Promise<WireMessage>;
  /** Resolves with the message's reaction summary after the reaction (reactions_changed for its id). */
  react(frame: AddReactionFrame): Promise<ReactionSummary[]>;
}

/** Called with each reply the server stored (for the 'reply' event). */
export type OnReplyStored = (message: WireMessage, streamed: boolean) => void;

/** The Reply a handler receives for one mention. */
export function createReply(mention: Mention, channel: ReplyChannel, onStored: OnReplyStored = () => {}): Reply {
  return trackedReply(mention, channel, onStored).reply;
}

/**
 * A Reply, and what the SDK does when its handler fails: `endWithNotice(text)` ends the reply so
 * the person who asked is not left waiting on a status line or a half-written stream. An open
 * stream gets the notice appended and is ended; a mention with no reply stored gets the notice
 * as its reply; a status line left up is cleared. Never rejects.
 */
export function trackedReply(
  mention: Mention,
  channel: ReplyChannel,
  onStored: OnReplyStored = () => {},
): { reply: Reply; endWithNotice(text: string): Promise<void> } {
  const chatId = mention.chat_id;
  const mentionId = mention.mention_id;
  const open = new Set<ReplyStream & { written(): string }>();
  let stored = false;
  let statusShown = false;
  const storedOne: OnReplyStored = (message, streamed) => {
    stored = true;
    onStored(message, streamed);
  };
  // Answers go in the thread of the message that asked, unless the handler says otherwise.
  const replyTo = (options: ReplyOptions | undefined) => (options?.topLevel === true ? {} : { reply_to: mention.message_id });
  const reply: Reply = {
    send(content, options) {
      return handled(sendWhole(String(content), replyTo(options)));
    },
    stream(options) {
      const stream = openStream({ type: 'stream_start', chat_id: chatId, stream_id: randomId('stream'), mention_id: mentionId, ...replyTo(options) }, channel, storedOne, () => open.delete(stream));
      open.add(stream);
      return stream;
    },
    status(text) {
      const line = String(text).slice(0, agentLimits.statusMaxLength);
      statusShown = line !== '';
      channel.status({ type: 'agent_status', chat_id: chatId, text: line });
    },
    edit(message, content) {
      const messageId = typeof message === 'string' ? message : message.message_id;
      const text = String(content);
      return handled(
        (async () => {
          if (text.trim() === '') throw new AgentError(agentErrorCodes.invalidReply, 'An edit needs some text: to take a message back, there is nothing to send.');
          checkLength(text);
          return channel.edit({ type: 'edit_message', message_id: messageId, content: text });
        })(),
      );
    },
    react(emoji) {
      const text = String(emoji);
      return handled(
        (async () => {
          const problem = validateReactionEmoji(text);
          if (problem !== null) throw new AgentError(agentErrorCodes.invalidReply, problem);
          return channel.react({ type: 'add_reaction', message_id: mention.message_id, emoji: text });
        })(),
      );
    },
  };

  async function sendWhole(content: string, thread: { reply_to?: string }): Promise<WireMessage> {
    checkLength(content);
    const message = await channel.send({ type: 'send_message', chat_id: chatId, content, client_id: randomId('reply'), mention_id: mentionId, ...thread });
    storedOne(message, false);
    return message;
  }

  async function endWithNotice(text: string): Promise<void> {
    const notice = text.slice(0, 1_000);
    const streams = [...open];
    try {
      if (streams.length > 0) {
        for (const stream of streams) {
          stream.write(stream.written().trim() === '' ? notice : `\n\n${notice}`);
          await stream.end();
        }
      } else if (!stored) {
        // Not through the 'reply' event: this is the SDK's notice, not the handler's answer.
        await channel.send({ type: 'send_message', chat_id: chatId, content: notice, client_id: randomId('notice'), mention_id: mentionId, reply_to: mention.message_id });
      } else if (statusShown) {
        channel.status({ type: 'agent_status', chat_id: chatId, text: '' });
      }
    } catch {
      // The connection or the invocation is gone: there is no one left to tell in the chat.
    }
  }

  return { reply, endWithNotice };
}

function openStream(start: StreamStartFrame, channel: ReplyChannel, onStored: OnReplyStored, onEnded: () => void): ReplyStream & { written(): string } {
  const id = start.stream_id;
  let written = '';
  let ending: Promise<WireMessage> | null = null;
  channel.startStream(start);
  return {
    id,
    written: () => written,
    write(text) {
      if (ending !== null) throw new AgentError(agentErrorCodes.invalidReply, 'This stream has ended: write() after end() is not sent.');
      const piece = String(text);
      if (piece === '') return;
      if (written.length + piece.length > maxMessageLength) {
        throw new AgentError(agentErrorCodes.invalidReply, `A reply is at most ${maxMessageLength} characters: this write would make it ${written.length + piece.length}.`);
      }
      written += piece;
      channel.appendStream(id, piece);
    },
    end() {
      if (ending === null) {
        onEnded();
        ending = handled(finish());
      }
      return ending;
    },
  };

  async function finish(): Promise<WireMessage> {
    const message = await channel.endStream(id, written.trim() === '');
    if (message === null) throw new AgentError(agentErrorCodes.invalidReply, 'The stream ended with no text: nothing was stored.');
    onStored(message, true);
    return message;
  }
}

/**
 * A reply a handler forgets to await must not crash the agent's process with an unhandled
 * rejection: the promise is returned as is (awaiting it still throws), only marked as handled.
 */
function handled<Value>(promise: Promise<Value>): Promise<Value> {
  promise.catch(() => {});
  return promise;
}

function checkLength(text: string): void {
  const length = text.trim().length;
  if (length === 0) throw new AgentError(agentErrorCodes.invalidReply, 'A reply cannot be empty.');
  if (length > maxMessageLength) {
    throw new AgentError(agentErrorCodes.invalidReply, `A reply is at most ${maxMessageLength} characters (this one has ${length}).`);
  }
}

/** A random id (client_id, stream_id): getRandomValues works in every browser context and Node ≥ 19. */
export function randomId(prefix: string): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
