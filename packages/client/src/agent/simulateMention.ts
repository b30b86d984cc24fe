import type { Mention, ReactionSummary, WireMessage } from '../protocol';
import { createReply } from './reply';
import type { ReplyChannel } from './reply';
import type { MentionHandler } from './types';

/** What a handler did with a simulated mention. */
export interface SimulatedReplies {
  /** Whole replies (reply.send), trimmed as the server stores them, in order. */
  sent: string[];
  /** The text of each streamed reply that was ended, in the order they ended. */
  streams: string[];
  /** Every status line set, '' (cleared) included. */
  statuses: string[];
  /** Every reply.edit, in order: which message, and its new text (trimmed). */
  edits: Array<{ message_id: string; content: string }>;
  /** Every reply.react, in order: the emoji on the mention's message. */
  reactions: string[];
  /** What the handler threw or rejected with, if it did. */
  error?: unknown;
}

/**
 * Runs a handler on one mention with no server and records its replies, for an agent's unit tests
 * (like Zulip's bot test case). The mention gets defaults for every field not given: chat
 * 'chat_test', author 'tester', context [], hop 1, … Replies meet the SDK's own checks (an empty
 * reply rejects, write() after end() throws); the server's permission checks are not simulated.
 *
 * @example
 * const { sent } = await simulateMention(echo, { content: '@echo hi' });
 * expect(sent).toEqual(['You said: @echo hi']);
 */
export async function simulateMention(handler: MentionHandler, partial: Partial<Mention> = {}): Promise<SimulatedReplies> {
  const mention = testMention(partial);
  const recorder = new Recorder(mention.chat_id);
  const result: SimulatedReplies = { sent: recorder.sent, streams: recorder.streams, statuses: recorder.statuses, edits: recorder.edits, reactions: recorder.reactions };
  try {
    await handler(mention, createReply(mention, recorder));
  } catch (error) {
    result.error = error;
  }
  return result;
}

function testMention(partial: Partial<Mention>): Mention {
  return {
    mention_id: 'mention_test',
    reason: 'mention',
    message_id: 'message_test',
    chat_id: 'chat_test',
    chat_name: 'Test chat',
    content: '',
    author_id: 'user_tester',
    author_name: 'Tester',
    author_username: 'tester',
    author_is_agent: false,
    created_at: new Date().toISOString(),
    context: [],
    hop: 1,
    ...partial,
  };
}

/** A ReplyChannel that stores instead of sending. */
class Recorder implements ReplyChannel {
  readonly sent: string[] = [];
  readonly streams: string[] = [];
  readonly statuses: string[] = [];
  readonly edits: Array<{ message_id: string; content: string }> = [];
  readonly reactions: string[] = [];
  private readonly open = new Map<string, string>();
  private seq = 0;

  constructor(private readonly chatId: string) {}

  async send(frame: { content: string; reply_to?: string }): Promise<WireMessage> {
    const content = frame.content.trim();
    this.sent.push(content);
    const message = this.message(content);
    return frame.reply_to === undefined ? message : { ...message, reply_to: frame.reply_to };
  }

  startStream(frame: { stream_id: string }): void {
    this.open.set(frame.stream_id, '');
  }

  appendStream(streamId: string, text: string): void {
    this.open.set(streamId, (this.open.get(streamId) ?? '') + text);
  }

  async endStream(streamId: string, empty: boolean): Promise<WireMessage | null> {
    const content = (this.open.get(streamId) ?? '').trim();
    this.open.delete(streamId);
    if (empty) return null;
    this.streams.push(content);
    return this.message(content);
  }

  status(frame: { text: string }): void {
    this.statuses.push(frame.text);
  }

  async react(frame: { message_id: string; emoji: string }): Promise<ReactionSummary[]> {
    this.reactions.push(frame.emoji);
    return [{ emoji: frame.emoji, count: 1, users: [{ id: 'agent_test', username: 'test_agent', name: 'Test agent' }] }];
  }

  async edit(frame: { message_id: string; content: string }): Promise<WireMessage> {
    const content = frame.content.trim();
    this.edits.push({ message_id: frame.message_id, content });
    return { ...this.message(content), message_id: frame.message_id, edited_at: new Date().toISOString() };
  }

  private message(content: string): WireMessage {
    this.seq += 1;
    return {
      message_id: `message_simulated_${this.seq}`,
      chat_id: this.chatId,
      author_id: 'agent_test',
      author_name: 'Test agent',
      author_username: 'test_agent',
      content,
      created_at: new Date().toISOString(),
      message_type: 'regular',
      seq: this.seq,
      is_agent: true,
    };
  }
}
