import { describe, expect, it } from 'vitest';
import { filter } from './filter';

describe('filter', () => {
  it.each<[string, Record<string, unknown> | undefined, string]>([
    ['chat = {:id}', { id: 'abc123' }, 'chat = "abc123"'],
    ['name = {:name}', { name: 'say "hi" \\ or not' }, 'name = "say \\"hi\\" \\\\ or not"'],
    ['name = {:name}', { name: "it's\nmultiline" }, 'name = "it\'s\\nmultiline"'],
    ['seq > {:from} && seq < {:to}', { from: 0, to: -10.5 }, 'seq > 0 && seq < -10.5'],
    ['verified = {:yes} || hidden = {:no}', { yes: true, no: false }, 'verified = true || hidden = false'],
    ['parent = {:none} && other = {:missing}', { none: null, missing: undefined }, 'parent = null && other = null'],
    ['created >= {:since}', { since: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) }, 'created >= "2026-01-02 03:04:05.006Z"'],
    ['meta = {:meta}', { meta: { a: 1, b: ['x'] } }, 'meta = "{\\"a\\":1,\\"b\\":[\\"x\\"]}"'],
    ['tags = {:tags}', { tags: ['a', 'b'] }, 'tags = "[\\"a\\",\\"b\\"]"'],
    ['x = {:wrapped}', { wrapped: { toJSON: () => 'text' } }, 'x = "text"'],
    ['same = {:id} || again = {:id}', { id: 'a' }, 'same = "a" || again = "a"'],
    ['kept = {:unknown}', { id: 'a' }, 'kept = {:unknown}'],
    ['odd = {:a.b}', { 'a.b': 1 }, 'odd = 1'],
    ['raw = {:id}', undefined, 'raw = {:id}'],
    ['raw = {:id}', {}, 'raw = {:id}'],
  ])('%s with %o', (expression, params, expected) => {
    expect(filter(expression, params)).toBe(expected);
  });

  it('cannot be escaped from by the value', () => {
    const hostile = '" || id != "';
    expect(filter('chat = {:id}', { id: hostile })).toBe(`chat = ${JSON.stringify(hostile)}`);
  });
});
