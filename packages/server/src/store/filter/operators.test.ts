import { describe, expect, it } from 'vitest';
import { likePattern } from './operators';

describe('likePattern', () => {
  it.each<[string, string]>([
    ['abc', '%abc%'],
    ['', '%%'],
    ['a_b', '%a\\_b%'],
    ['a\\b', '%a\\\\b%'],
    ['end\\', '%end\\\\%'],
    ['\\\\', '%\\\\%'], // an already-escaped backslash is kept
    ['50\\%', '%50\\%%'], // an escaped % is not a wildcard of the user's
    ['a\\_b', '%a\\_b%'],
    ['__', '%\\_\\_%'],
    // The user's own unescaped % makes the value a pattern, used as written.
    ['50%', '50%'],
    ['%a_b', '%a_b'],
    ['a%\\', 'a%\\\\'], // but never ending in a dangling escape, which PostgreSQL rejects
    ['\\\\%', '\\\\%'],
  ])('%j → %j', (value, pattern) => {
    expect(likePattern(value)).toBe(pattern);
  });
});
