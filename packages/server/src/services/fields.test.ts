import { describe, expect, it } from 'vitest';
import { applyFields, excerpt, parseFields } from './fields';

const record = {
  id: 'a',
  name: 'Chat',
  content: '<p>Hello <b>wide</b> world</p>',
  expand: { author: { id: 'u', username: 'ann', name: 'Ann' }, participants: [{ id: 'p', username: 'bob' }] },
};

describe('fields', () => {
  it('keeps listed paths, including dot paths into expand and arrays', () => {
    expect(applyFields(record, parseFields('id,expand.author.username,expand.participants.username'))).toEqual({
      id: 'a',
      expand: { author: { username: 'ann' }, participants: [{ username: 'bob' }] },
    });
  });

  it('supports * and excerpts', () => {
    const projected = applyFields(record, parseFields('*,content:excerpt(5,true)'));
    expect(projected.content).toBe('Hello...');
    expect(projected.name).toBe('Chat');
    expect(excerpt('short', 10, true)).toBe('short');
    expect(excerpt('<i>a</i>  b', 10, false)).toBe('a b');
  });

  it('returns the record unchanged without fields', () => {
    expect(applyFields(record, parseFields(''))).toBe(record);
  });
});
