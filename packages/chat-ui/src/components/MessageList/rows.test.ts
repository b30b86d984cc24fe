import { describe, expect, it } from 'vitest';
import type { AgentNotice } from '@confab/client';
import type { ClientMessage } from '../../internal/chatClient';
import { clientMessage } from '../../testing/builders';
import { rowsOf, type Row } from './rows';

/** A message by `author` at a local time of 5 January 2026 ('HH:MM:SS'), or on another day. */
function at(time: string, overrides: Partial<ClientMessage> = {}, day = 5): ClientMessage {
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  const created = new Date(2026, 0, day, hours, minutes, seconds).toISOString();
  return clientMessage({ content: `at ${time}`, created_at: created, author_id: 'user_ann', author_name: 'Ann', ...overrides });
}

/** Each message row as 'G' (grouped) or 'H' (with its header), '|' before a day's first one. */
const shape = (rows: readonly Row[]) =>
  rows.map((row) => (row.kind === 'notice' ? 'N' : `${row.dayStart ? '|' : ''}${row.grouped ? 'G' : 'H'}`)).join(' ');

describe('rowsOf grouping', () => {
  it('groups one author within 5 minutes of the message above: 4:59 groups, 5:01 does not', () => {
    expect(shape(rowsOf([at('12:00:00'), at('12:04:59')], []))).toBe('|H G');
    expect(shape(rowsOf([at('12:00:00'), at('12:05:01')], []))).toBe('|H H');
    // Measured from the message right above, so a quick chain keeps going.
    expect(shape(rowsOf([at('12:00:00'), at('12:04:00'), at('12:08:00'), at('12:12:00')], []))).toBe('|H G G G');
  });

  it('starts a new group for another author, and between a person and an agent', () => {
    const bob = { author_id: 'user_bob', author_name: 'Bob' };
    expect(shape(rowsOf([at('12:00'), at('12:01', bob), at('12:02', bob), at('12:03')], []))).toBe('|H H G H');
    expect(shape(rowsOf([at('12:00'), at('12:01', { is_agent: true })], []))).toBe('|H H');
  });

  it('opens each local day with a divider, which breaks a group across midnight', () => {
    const rows = rowsOf([at('23:58'), at('00:01', {}, 6), at('00:02', {}, 6)], []);
    expect(shape(rows)).toBe('|H |H G');
    expect(rows.map((row) => (row.kind === 'message' ? row.dayStart?.day : null))).toEqual(['2026-01-05', '2026-01-06', undefined]);
  });

  it("breaks a group at the 'New messages' divider and after a notice", () => {
    const messages = [at('12:00'), at('12:01'), at('12:02')];
    expect(shape(rowsOf(messages, [], { breakBefore: messages[1] }))).toBe('|H H G');
    const notice: AgentNotice = { id: 'n1', chat_id: 'c1', message_id: messages[0]!.message_id, agent_username: 'echo', reason: 'offline', text: 'offline', received_at: '' };
    expect(shape(rowsOf(messages, [notice]))).toBe('|H N H G');
  });

  it('never groups a system line; files, emails and searches group like any message', () => {
    const system = { message_type: 'system' };
    expect(shape(rowsOf([at('12:00'), at('12:01', system), at('12:02', system), at('12:03')], []))).toBe('|H H H H');
    expect(shape(rowsOf([at('12:00'), at('12:01', { message_type: 'file' }), at('12:02', { message_type: 'email' }), at('12:03', { message_type: 'search' })], []))).toBe(
      '|H G G G',
    );
  });

  it('keeps the header of a failed message, and groups nothing while searching', () => {
    expect(shape(rowsOf([at('12:00'), at('12:01', { status: 'failed' })], []))).toBe('|H H');
    expect(shape(rowsOf([at('12:00'), at('12:01', { status: 'pending', seq: null })], []))).toBe('|H G');
    expect(shape(rowsOf([at('12:00'), at('12:01')], [], { filtering: true }))).toBe('|H H');
  });

  it('gives a message with an unparsable date, or one dated before the day above, no divider of its own', () => {
    const rows = rowsOf([at('12:00', {}, 6), at('23:59', {}, 5), clientMessage({ content: 'x', created_at: 'not a date', author_id: 'user_ann' })], []);
    expect(shape(rows)).toBe('|H H H');
  });
});
