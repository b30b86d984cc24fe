import { describe, expect, it } from 'vitest';
import type { ClientMessage, ThreadState } from '../types';
import { threadReplies } from './threads';
import { changeMessages, changeThread, contiguousSeq, mergeMessages, oldestSeq, updateUnconfirmed } from './mergeMessages';

function message(seq: number | null, overrides: Partial<ClientMessage> = {}): ClientMessage {
  return {
    message_id: seq === null ? `pending-${overrides.client_id ?? ''}` : `m${seq}`,
    chat_id: 'chat1',
    author_id: 'u1',
    author_name: 'U',
    author_username: 'u',
    content: `content ${seq ?? 'pending'}`,
    created_at: '2026-01-01 00:00:00.000Z',
    message_type: 'regular',
    seq,
    status: seq === null ? 'pending' : 'sent',
    is_agent: false,
    ...overrides,
  };
}

const seqs = (messages: ClientMessage[]) => messages.map((item) => item.seq);

describe('mergeMessages', () => {
  it('appends, prepends and fills gaps in seq order', () => {
    const current = [message(3), message(4)];
    expect(seqs(mergeMessages(current, [message(5)]))).toEqual([3, 4, 5]);
    expect(seqs(mergeMessages(current, [message(2), message(1)]))).toEqual([1, 2, 3, 4]);
    expect(seqs(mergeMessages([message(1), message(4)], [message(3), message(2)]))).toEqual([1, 2, 3, 4]);
  });

  it('ignores a seq it already holds and returns the same array when nothing changes', () => {
    const current = [message(1), message(2)];
    expect(mergeMessages(current, [message(2, { content: 'again' })])).toBe(current);
    expect(mergeMessages(current, [])).toBe(current);
    expect(mergeMessages(current, [message(2), message(3), message(3)])).toHaveLength(3);
  });

  it('replaces the unconfirmed message with the same client_id and keeps the others last', () => {
    const current = [message(1), message(null, { client_id: 'a' }), message(null, { client_id: 'b', status: 'failed' })];
    const merged = mergeMessages(current, [message(2, { client_id: 'b' })]);
    expect(merged.map((item) => [item.seq, item.client_id, item.status])).toEqual([
      [1, undefined, 'sent'],
      [2, 'b', 'sent'],
      [null, 'a', 'pending'],
    ]);
    // A confirmation whose seq is already held (a replay came first) still clears the pending copy.
    expect(seqs(mergeMessages([message(1), message(null, { client_id: 'c' })], [message(1, { client_id: 'c' })]))).toEqual([1]);
  });
});

describe('helpers', () => {
  it('updates one unconfirmed message, finds the oldest seq and the contiguous end', () => {
    const current = [message(2), message(null, { client_id: 'a' })];
    expect(updateUnconfirmed(current, 'a', (item) => ({ ...item, status: 'failed' }))[1]?.status).toBe('failed');
    expect(updateUnconfirmed(current, 'zzz', (item) => item)).toBe(current);
    expect(oldestSeq(current)).toBe(2);
    expect(oldestSeq([message(null)])).toBeNull();
    expect(contiguousSeq([message(1), message(2), message(3), message(5)], 1)).toBe(3);
    expect(contiguousSeq([message(4)], 2)).toBe(2);
  });
});

describe('changeMessages and file messages', () => {
  it("marks a card's file deleted though no time of the message moved, once", () => {
    const file = { file_id: 'f1', name: 'sales.csv', file: 'sales_abcdefghij.csv', type: 'text/csv', size: 22 };
    const current = [message(1, { message_type: 'file', content: 'shared sales.csv', file })];
    const changed = changeMessages(current, [message(1, { message_type: 'file', content: 'shared sales.csv', file: { ...file, deleted: true } })]);
    expect(changed[0]?.file).toEqual({ ...file, deleted: true });
    expect(changeMessages(changed, [message(1, { message_type: 'file', content: 'shared sales.csv', file })])).toBe(changed);
  });
});

describe('an open thread under edits and deletions', () => {
  const original = message(1);
  const olderReply = message(2, { reply_to: 'm1', content: 'older reply' });
  const liveReply = message(40, { reply_to: 'm1', content: 'live reply' });
  const thread: ThreadState = { chat_id: 'chat1', original_id: 'm1', original, replies: [olderReply, liveReply], loading: false, error: null };
  const deleted = (held: ClientMessage) => ({ ...held, content: '', deleted_at: '2026-01-01 00:05:00.000Z' });

  it('changeThread deletes and edits a reply only the thread holds (older than the loaded pages), and the original', () => {
    const afterDeletion = changeThread(thread, [deleted(olderReply)])!;
    expect(afterDeletion.replies.map((reply) => reply.deleted_at !== undefined)).toEqual([true, false]);
    const edited = { ...original, content: 'edited', edited_at: '2026-01-01 00:06:00.000Z' };
    expect(changeThread(thread, [edited])!.original?.content).toBe('edited');
    expect(changeThread(thread, [message(99)])).toBe(thread);
    expect(changeThread(null, [deleted(olderReply)])).toBeNull();
  });

  it('threadReplies leaves out a reply the chat holds as deleted, though the thread loaded it before', () => {
    const chatMessages = [message(39), deleted(liveReply)];
    expect(threadReplies(thread.replies, chatMessages, 'm1').map((reply) => reply.content)).toEqual(['older reply']);
    expect(threadReplies(changeThread(thread, [deleted(olderReply)])!.replies, chatMessages, 'm1')).toEqual([]);
    // A live reply that is not deleted shows once, the chat's copy.
    expect(threadReplies(thread.replies, [liveReply], 'm1').map((reply) => reply.content)).toEqual(['older reply', 'live reply']);
  });
});
