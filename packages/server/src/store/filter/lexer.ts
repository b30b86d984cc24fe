import { comparisonOperators, type ComparisonOperator } from './ast';
import { invalidFilter } from './errors';

export type Token =
  | { type: '(' | ')' | '&&' | '||' | 'end'; position: number }
  | { type: 'operator'; operator: ComparisonOperator; position: number }
  | { type: 'identifier'; text: string; position: number }
  | { type: 'string'; value: string; position: number }
  | { type: 'number'; value: number; text: string; position: number };

// Longest first, so `?!=` is not read as `?` followed by `!=`.
const operatorsByLength = [...comparisonOperators].sort((a, b) => b.length - a.length);

const simpleEscapes: Record<string, string> = {
  '"': '"', "'": "'", '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f',
};

const isDigit = (char: string): boolean => char >= '0' && char <= '9';
const isLetter = (char: string): boolean => (char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z');
const isIdentifierStart = (char: string): boolean => isLetter(char) || char === '_' || char === '@' || char === '#';
const isIdentifierPart = (char: string): boolean =>
  isLetter(char) || isDigit(char) || char === '_' || char === '.' || char === ':';
const isWhitespace = (char: string): boolean => char === ' ' || char === '\t' || char === '\n' || char === '\r';
const isHex = (char: string): boolean => /^[0-9a-fA-F]$/.test(char);

/** How a character is named in an error: printable ones quoted, the rest as code points. */
export function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code >= 0x20 && code !== 0x7f ? `'${char}'` : `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Splits a filter into tokens. A plain loop over the input (no regex backtracking, no
 * recursion), so its cost is linear in the length, which the caller has already capped.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < input.length) {
    const char = input[index] as string;
    const start = index;
    if (isWhitespace(char)) {
      index += 1;
    } else if (char === '/' && input[index + 1] === '/') {
      while (index < input.length && input[index] !== '\n') index += 1;
    } else if (char === '(' || char === ')') {
      tokens.push({ type: char, position: start });
      index += 1;
    } else if ((char === '&' || char === '|') && input[index + 1] === char) {
      tokens.push({ type: char === '&' ? '&&' : '||', position: start });
      index += 2;
    } else if (char === '"' || char === "'") {
      const { value, end } = readString(input, start);
      tokens.push({ type: 'string', value, position: start });
      index = end;
    } else if (isDigit(char) || (char === '-' && isDigit(input[index + 1] ?? ''))) {
      index = readNumber(input, start, tokens);
    } else if (isIdentifierStart(char)) {
      index += 1; // the start character ('@', '#') need not be a valid part character
      while (index < input.length && isIdentifierPart(input[index] as string)) index += 1;
      tokens.push({ type: 'identifier', text: input.slice(start, index), position: start });
    } else {
      const operator = operatorsByLength.find((candidate) => input.startsWith(candidate, index));
      if (!operator) throw invalidFilter(`unexpected ${describeCharacter(String.fromCodePoint(input.codePointAt(index) ?? 0))} at position ${start}`);
      tokens.push({ type: 'operator', operator, position: start });
      index += operator.length;
    }
  }
  tokens.push({ type: 'end', position: input.length });
  return tokens;
}

function readNumber(input: string, start: number, tokens: Token[]): number {
  let index = input[start] === '-' ? start + 1 : start;
  while (isDigit(input[index] ?? '')) index += 1;
  if (input[index] === '.' && isDigit(input[index + 1] ?? '')) {
    index += 1;
    while (isDigit(input[index] ?? '')) index += 1;
  }
  const text = input.slice(start, index);
  const value = Number(text);
  // Hundreds of digits parse to Infinity, which no database column can be compared with.
  if (!Number.isFinite(value)) throw invalidFilter(`number out of range at position ${start}`);
  tokens.push({ type: 'number', value, text, position: start });
  return index;
}

/**
 * Reads a quoted string. JSON escapes are decoded because the SDK's `pb.filter()` writes
 * values with JSON.stringify; any other backslash pair is kept verbatim (as PocketBase does),
 * so LIKE escapes such as `\%` reach the LIKE pattern untouched.
 */
function readString(input: string, start: number): { value: string; end: number } {
  const quoteChar = input[start] as string;
  let value = '';
  let index = start + 1;
  while (index < input.length) {
    const char = input[index] as string;
    if (char === quoteChar) return { value, end: index + 1 };
    if (char !== '\\') {
      value += char;
      index += 1;
      continue;
    }
    const next = input[index + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = input.slice(index + 2, index + 6);
      if (hex.length < 4 || ![...hex].every(isHex)) throw invalidFilter(`invalid \\u escape at position ${index}`);
      // Surrogate pairs arrive as two \u escapes; concatenating the halves rebuilds the character.
      value += String.fromCharCode(Number.parseInt(hex, 16));
      index += 6;
      continue;
    }
    value += simpleEscapes[next] ?? `\\${next}`;
    index += 2;
  }
  throw invalidFilter(`unterminated string starting at position ${start}`);
}
