import { describe, expect, it } from 'vitest';
import { clientMessage, messageHistory } from '../../testing/builders';
import { rowsOf } from './rows';
import { firstNewIndex, highestSeqInView, newMessagesPlace, readThrough, rowAt } from './unread';

describe('firstNewIndex', () => {
  const history = messageHistory(6, 'c1');

  it("finds the first message after the position that is not the person's own, or -1", () => {
    expect(firstNewIndex(history, 3, null)).toBe(3);
    expect(firstNewIndex(history, 6, null)).toBe(-1);
    expect(firstNewIndex(history, 0, null)).toBe(0);
  });

  it("skips the person's own messages and unconfirmed ones", () => {
    // Message 4 is Bob's (user00000000002): as Bob, message 5 is the first new one.
    expect(firstNewIndex(history, 3, 'user00000000002')).toBe(4);
    const pending = clientMessage({ content: 'Sending', seq: null, status: 'pending' });
    expect(firstNewIndex([...history, pending], 6, null)).toBe(-1);
  });
});

describe('newMessagesPlace', () => {
  const history = messageHistory(10, 'c1');
  const rows = rowsOf(history, []);

  it('puts the divider on the row of the first new message', () => {
    expect(newMessagesPlace(history, rows, 4, null, true)).toEqual({ dividerRow: 4, startsInOlder: false });
    expect(newMessagesPlace(history, rows, 10, null, false)).toEqual({ dividerRow: -1, startsInOlder: false });
    expect(newMessagesPlace(history, rows, null, null, false)).toEqual({ dividerRow: -1, startsInOlder: false });
  });

  it('waits while the first loaded message is new and older ones are not loaded', () => {
    expect(newMessagesPlace(history, rows, 0, null, true)).toEqual({ dividerRow: -1, startsInOlder: true });
    expect(newMessagesPlace(history, rows, 0, null, false)).toEqual({ dividerRow: 0, startsInOlder: false });
  });
});

describe('rows in view', () => {
  const startOf = (index: number) => index * 100;

  it('finds the row at an offset', () => {
    expect(rowAt(startOf, 10, 0)).toBe(0);
    expect(rowAt(startOf, 10, 250)).toBe(2);
    expect(rowAt(startOf, 10, 5000)).toBe(9);
    expect(rowAt(startOf, 0, 10)).toBe(0);
  });

  it('takes the highest seq of the messages wholly in view', () => {
    const rows = rowsOf(messageHistory(10, 'c1'), []);
    const view = (top: number, bottom: number) => highestSeqInView(rows, (index) => Math.min(index, rows.length) * 100, top, bottom);
    expect(view(0, 350)).toBe(3);
    expect(view(150, 450)).toBe(4);
    expect(view(900, 1500)).toBe(10);
    // A row taller than the view counts once it fills it.
    expect(highestSeqInView(rows, (index) => index * 1000, 1100, 1900)).toBe(2);
  });
});

describe('readThrough', () => {
  const history = messageHistory(6, 'c1');
  const deleted = (message: (typeof history)[number]) => ({ ...message, content: '', deleted_at: '2026-01-05 12:00:00.000Z' });

  it('reads the deleted messages after the last one shown along with it', () => {
    const all = [...history.slice(0, 4), deleted(history[4]!), deleted(history[5]!)];
    const shown = history.slice(0, 4);
    expect(readThrough(4, shown, all)).toBe(6);
    // Any other message reads only itself: the deleted ones between are below it anyway.
    expect(readThrough(3, shown, all)).toBe(3);
  });

  it('reads only itself when nothing after it was deleted, pending messages aside', () => {
    const pending = clientMessage({ content: 'Sending', seq: null, status: 'pending' });
    expect(readThrough(6, history, [...history, pending])).toBe(6);
    expect(readThrough(6, [...history, pending], [...history, pending])).toBe(6);
  });
});
