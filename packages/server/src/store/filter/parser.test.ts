import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterNode, Operand } from './ast';
import { FilterError } from './errors';
import { parseFilter } from './parser';
import { defaultFilterLimits } from './types';

/** Fixture builders: identifiers and comparisons without positions, compared loosely. */
const field = (raw: string): Operand => {
  const [pathText = '', modifier = null] = raw.split(':');
  return { type: 'identifier', raw, path: pathText.split('.'), modifier, position: expect.any(Number) as number };
};
const text = (value: string): Operand => ({ type: 'string', value, position: expect.any(Number) as number });
const compare = (left: Operand, operator: string, right: Operand): FilterNode =>
  ({ type: 'comparison', left, operator, right, position: expect.any(Number) as number }) as FilterNode;

/** The value of the right-hand string literal of a one-comparison filter. */
function stringValue(filter: string): string {
  const node = parseFilter(filter);
  if (node?.type !== 'comparison' || node.right.type !== 'string') throw new Error(`not a string comparison: ${filter}`);
  return node.right.value;
}

function parseError(filter: string, limits = defaultFilterLimits): FilterError {
  try {
    parseFilter(filter, limits);
  } catch (error) {
    if (error instanceof FilterError) return error;
    throw error;
  }
  throw new Error(`expected a FilterError for ${filter}`);
}

describe('parseFilter: structure', () => {
  it.each<[string, FilterNode | null]>([
    ['', null],
    ['  \n\t ', null],
    ['// nothing here', null],
    ['a = 1', compare(field('a'), '=', { type: 'number', value: 1, position: 4 })],
    ['a.b.c != null', compare(field('a.b.c'), '!=', { type: 'null', position: 9 })],
    ['tags:length >= -1.5', compare(field('tags:length'), '>=', { type: 'number', value: -1.5, position: 15 })],
    ['x ?!~ true', compare(field('x'), '?!~', { type: 'boolean', value: true, position: 6 })],
    ['created < @todayStart', compare(field('created'), '<', { type: 'macro', name: '@todayStart', position: 10 })],
    ['_a1 = #b', compare(field('_a1'), '=', field('#b'))],
    ['@request.auth.id = ""', compare(field('@request.auth.id'), '=', text(''))],
    ['"a"="b"', compare(text('a'), '=', text('b'))],
    [
      'a = 1 || b = 2 && c = 3',
      { type: 'or', children: [compare(field('a'), '=', expect.anything() as Operand), { type: 'and', children: [compare(field('b'), '=', expect.anything() as Operand), compare(field('c'), '=', expect.anything() as Operand)] }] },
    ],
    [
      '(a = 1 || b = 2) && c = 3',
      { type: 'and', children: [{ type: 'or', children: [compare(field('a'), '=', expect.anything() as Operand), compare(field('b'), '=', expect.anything() as Operand)] }, compare(field('c'), '=', expect.anything() as Operand)] },
    ],
    [
      'a = 1 && b = 2 && c = 3 || d = 4',
      { type: 'or', children: [{ type: 'and', children: [expect.anything(), expect.anything(), expect.anything()] as FilterNode[] }, compare(field('d'), '=', expect.anything() as Operand)] },
    ],
    ['a = 1 // comment\n&& b = "//not a comment"', { type: 'and', children: [compare(field('a'), '=', expect.anything() as Operand), compare(field('b'), '=', text('//not a comment'))] }],
    ['((a ~ "x"))', compare(field('a'), '~', text('x'))],
  ])('%j', (filter, expected) => {
    expect(parseFilter(filter)).toEqual(expected);
  });

  it('reads every operator', () => {
    for (const operator of ['=', '!=', '>', '>=', '<', '<=', '~', '!~', '?=', '?!=', '?>', '?>=', '?<', '?<=', '?~', '?!~']) {
      expect(parseFilter(`a ${operator} 1`)).toMatchObject({ operator });
      expect(parseFilter(`a${operator}1`)).toMatchObject({ operator });
    }
  });

  it('reads every macro', () => {
    for (const name of ['@now', '@yesterday', '@tomorrow', '@todayStart', '@todayEnd', '@monthStart', '@monthEnd', '@yearStart', '@yearEnd']) {
      expect(parseFilter(`created > ${name}`)).toMatchObject({ right: { type: 'macro', name } });
    }
  });
});

describe('parseFilter: strings', () => {
  it.each<[string, string]>([
    [String.raw`a = "\""`, '"'],
    [String.raw`a = "\\"`, '\\'],
    [String.raw`a = "\/"`, '/'],
    [String.raw`a = "\b\f\n\r\t"`, '\b\f\n\r\t'],
    [String.raw`a = "\u0041\u00e9\u4e2d"`, 'Aé中'],
    [String.raw`a = "\ud83d\ude00"`, '😀'],
    [String.raw`a = "\uD83D\uDE00"`, '😀'],
    [String.raw`a = 'it\'s'`, "it's"],
    [String.raw`a = 'say "hi"'`, 'say "hi"'],
    [String.raw`a = "it's"`, "it's"],
    [String.raw`a = "50\%"`, '50\\%'],
    [String.raw`a = "a\_b"`, 'a\\_b'],
    ['a = "multi\nline"', 'multi\nline'],
    ['a = "日本語 ✓"', '日本語 ✓'],
    ['a = "// not a comment"', '// not a comment'],
    ['a = ""', ''],
  ])('%s', (filter, value) => {
    expect(stringValue(filter)).toBe(value);
  });

  it('decodes every escape JSON.stringify emits (all of U+0000–U+00FF and the surrogates)', () => {
    const characters = [...Array.from({ length: 256 }, (_, code) => String.fromCharCode(code)), '\u2028', '\u2029', '\ud800', '\udfff', '\ud83d\ude00'];
    for (const character of characters) {
      const value = `x${character}y`;
      expect(stringValue(`a = ${JSON.stringify(value)}`)).toBe(value);
    }
  });

  it('round-trips any string written with JSON.stringify (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
        expect(stringValue(`a = ${JSON.stringify(value)}`)).toBe(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseFilter: errors', () => {
  it.each<[string, string]>([
    ['a =', "Invalid filter: unexpected end of filter at position 3."],
    ['a = 1)', "Invalid filter: unexpected ')' at position 5."],
    ['(a = 1', 'Invalid filter: unexpected end of filter at position 6.'],
    ['()', "Invalid filter: unexpected ')' at position 1."],
    ['a == 1', "Invalid filter: unexpected '=' at position 3."],
    ['a = 1 &&', 'Invalid filter: unexpected end of filter at position 8.'],
    ['a = 1 & b = 2', "Invalid filter: unexpected '&' at position 6."],
    ['a = 1 b = 2', 'Invalid filter: unexpected identifier "b" at position 6.'],
    ['a = "x', 'Invalid filter: unterminated string starting at position 4.'],
    ["a = 'x\\'", 'Invalid filter: unterminated string starting at position 4.'],
    ['a = "\\u12"', 'Invalid filter: invalid \\u escape at position 5.'],
    ['a = "\\uzzzz"', 'Invalid filter: invalid \\u escape at position 5.'],
    ['a ! 1', "Invalid filter: unexpected '!' at position 2."],
    ['a = 1 / 2', "Invalid filter: unexpected '/' at position 6."],
    ['a = -b', "Invalid filter: unexpected '-' at position 4."],
    ['true', 'Invalid filter: unexpected end of filter at position 4.'],
    ['a.. = 1', 'Invalid filter: malformed identifier "a.." at position 0.'],
    ['a:b:c = 1', 'Invalid filter: malformed identifier "a:b:c" at position 0.'],
    ['a: = 1', 'Invalid filter: malformed identifier "a:" at position 0.'],
    ['a = 1 😀', 'Invalid filter: unexpected \'😀\' at position 6.'],
    ['a = 1 \u0001', 'Invalid filter: unexpected character U+0001 at position 6.'],
    [`a = ${'9'.repeat(400)}`, 'Invalid filter: number out of range at position 4.'],
  ])('%j', (filter, message) => {
    const error = parseError(filter);
    expect(error.status).toBe(400);
    expect(error.message).toBe(message);
  });

  it('enforces the length limit', () => {
    const filter = `a = "${'x'.repeat(defaultFilterLimits.maxLength - 6)}"`;
    expect(filter.length).toBe(defaultFilterLimits.maxLength);
    expect(() => parseFilter(filter)).not.toThrow();
    expect(parseError(`${filter} `).message).toBe('Invalid filter: longer than the maximum of 3500 characters.');
  });

  it('enforces the expression limit', () => {
    const filters = (count: number): string => Array.from({ length: count }, () => 'a=1').join('||');
    expect(() => parseFilter(filters(200))).not.toThrow();
    expect(parseError(filters(201)).message).toBe('Invalid filter: more than 200 expressions.');
  });

  it('enforces the parenthesis depth limit before recursing', () => {
    const nested = (depth: number): string => `${'('.repeat(depth)}a=1${')'.repeat(depth)}`;
    expect(() => parseFilter(nested(20))).not.toThrow();
    expect(parseError(nested(21)).message).toBe('Invalid filter: parentheses nested deeper than 20 levels at position 20.');
    // Far past any stack size: fails fast on the limit instead of overflowing.
    const huge = { ...defaultFilterLimits, maxLength: 2_000_000 };
    expect(parseError('('.repeat(1_000_000), huge).status).toBe(400);
  });

  it('enforces the path depth limit', () => {
    expect(() => parseFilter('a.b.c.d.e.f.g = 1')).not.toThrow();
    expect(parseError('a.b.c.d.e.f.g.h = 1').message).toBe('Invalid filter: path "a.b.c.d.e.f.g.h" has more than 6 relation hops at position 0.');
  });

  it('honours custom limits', () => {
    const limits = { maxLength: 20, maxExpressions: 2, maxDepth: 1, maxPathDepth: 1 };
    expect(parseError('a=1||a=1||a=1', limits).message).toContain('more than 2 expressions');
    expect(parseError('((a=1))', limits).message).toContain('deeper than 1 levels');
    expect(parseError('a.b.c=1', limits).message).toContain('more than 1 relation hops');
    expect(parseError('a = "0123456789abcdef"', limits).message).toContain('maximum of 20');
  });

  it('rejects a non-string filter with a FilterError', () => {
    expect(parseError(42 as unknown as string).message).toBe('Invalid filter: expected a string.');
  });
});
