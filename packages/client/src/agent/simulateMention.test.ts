import { describe, expect, it } from 'vitest';
import { simulateMention } from './simulateMention';
import type { MentionHandler } from './types';

const echo: MentionHandler = async (mention, reply) => {
  reply.status('thinking…');
  await reply.send(`You said: ${mention.content}`);
  reply.status('');
};

describe('simulateMention', () => {
  it('records whole replies and statuses with no server', async () => {
    await expect(simulateMention(echo, { content: '@echo hi' })).resolves.toEqual({
      sent: ['You said: @echo hi'],
      streams: [],
      statuses: ['thinking…', ''],
      edits: [],
      reactions: [],
    });
  });

  it('records edits of a reply, checked like a live one', async () => {
    const result = await simulateMention(async (_mention, reply) => {
      const first = await reply.send('Working on it…');
      const edited = await reply.edit(first, ' Done: 42 ');
      expect(edited).toMatchObject({ message_id: first.message_id, content: 'Done: 42' });
      expect(edited.edited_at).toBeDefined();
      await expect(reply.edit(first, '  ')).rejects.toMatchObject({ code: 'invalid_reply' });
    });
    expect(result).toEqual({ sent: ['Working on it…'], streams: [], statuses: [], edits: [{ message_id: 'message_simulated_1', content: 'Done: 42' }], reactions: [] });
  });

  it('records the text of each ended stream; a stream never ended is not stored', async () => {
    const result = await simulateMention(async (_mention, reply) => {
      const first = reply.stream();
      first.write('one, ');
      first.write('two');
      const forgotten = reply.stream();
      forgotten.write('never ended');
      const message = await first.end();
      expect(message).toMatchObject({ content: 'one, two', chat_id: 'chat_test', is_agent: true });
      await reply.send(' trimmed ');
    });
    expect(result).toEqual({ sent: ['trimmed'], streams: ['one, two'], statuses: [], edits: [], reactions: [] });
  });

  it('fills the mention with defaults and keeps the fields given', async () => {
    let seen: unknown = null;
    await simulateMention(
      (mention) => {
        seen = mention;
      },
      { content: '@echo hi', hop: 2, context: [] },
    );
    expect(seen).toMatchObject({
      mention_id: 'mention_test',
      reason: 'mention',
      chat_id: 'chat_test',
      author_username: 'tester',
      author_is_agent: false,
      content: '@echo hi',
      context: [],
      hop: 2,
    });
  });

  it('returns what the handler threw, with the replies made before it', async () => {
    const result = await simulateMention(async (_mention, reply) => {
      await reply.send('partial');
      throw new Error('boom');
    });
    expect(result).toEqual({ sent: ['partial'], streams: [], statuses: [], edits: [], reactions: [], error: new Error('boom') });
  });

  it('applies the same checks as a live reply', async () => {
    const result = await simulateMention(async (_mention, reply) => {
      await reply.send('  ');
    });
    expect(result.error).toMatchObject({ name: 'AgentError', code: 'invalid_reply', message: 'A reply cannot be empty.' });
    expect(result.sent).toEqual([]);
  });

  it('answers in the thread of the mention by default, or in the chat with topLevel', async () => {
    const replies: Array<string | undefined> = [];
    await simulateMention(
      async (_mention, reply) => {
        replies.push((await reply.send('in the thread')).reply_to);
        replies.push((await reply.send('to everyone', { topLevel: true })).reply_to);
      },
      { message_id: 'message_asking' },
    );
    expect(replies).toEqual(['message_asking', undefined]);
  });
});
