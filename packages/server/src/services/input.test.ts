import { describe, expect, it } from 'vitest';
import { inferFormValue } from '../http/formValues';
import { applyRelationModifiers } from './input';

describe('relation modifiers', () => {
  it('replaces, prepends, appends and removes with de-duplication', () => {
    expect(applyRelationModifiers({}, 'participants', ['a'])).toBeUndefined();
    expect(applyRelationModifiers({ participants: ['b', 'b'] }, 'participants', ['a'])).toEqual(['b']);
    expect(applyRelationModifiers({ '+participants': 'z', 'participants+': ['a', 'c'] }, 'participants', ['a', 'b'])).toEqual([
      'z', 'a', 'b', 'c',
    ]);
    expect(applyRelationModifiers({ 'participants-': ['a'] }, 'participants', ['a', 'b'])).toEqual(['b']);
    expect(applyRelationModifiers({ participants: 5 }, 'participants', [])).toBeNull();
  });
});

describe('form value inference', () => {
  it('types exact booleans and numbers only', () => {
    expect(inferFormValue('true')).toBe(true);
    expect(inferFormValue('false')).toBe(false);
    expect(inferFormValue('42')).toBe(42);
    expect(inferFormValue('-1.5')).toBe(-1.5);
    expect(inferFormValue('007')).toBe('007');
    expect(inferFormValue('1e3')).toBe('1e3');
    expect(inferFormValue('True')).toBe('True');
  });
});
