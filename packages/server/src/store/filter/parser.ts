import { macroNames, type Comparison, type FilterNode, type Identifier, type MacroName, type Operand } from './ast';
import { invalidFilter, quote, type FilterError } from './errors';
import { tokenize, type Token } from './lexer';
import { defaultFilterLimits, type FilterLimits } from './types';

const macros: ReadonlySet<string> = new Set(macroNames);

/**
 * Ceilings on whatever limits a caller configures: parsing, compiling and Kysely's own
 * query compiler all recurse once per level, so a generous configuration must still not be
 * able to exhaust the stack.
 */
export const hardLimits = { maxDepth: 64, maxPathDepth: 16 } as const;

function effectiveLimits(limits: FilterLimits): FilterLimits {
  return {
    ...limits,
    maxDepth: Math.min(limits.maxDepth, hardLimits.maxDepth),
    maxPathDepth: Math.min(limits.maxPathDepth, hardLimits.maxPathDepth),
  };
}

/**
 * Parses a PocketBase filter into a syntax tree; `null` for an empty filter (only whitespace
 * or comments). Throws `FilterError` (400) for anything malformed or over `limits`.
 *
 * Grammar: `or := and ("||" and)*`, `and := primary ("&&" primary)*`,
 * `primary := "(" or ")" | operand OP operand`. Only parentheses recurse, and the depth is
 * checked before each descent, so hostile input cannot exhaust the stack.
 *
 * @example parseFilter('author.username = "ann" && (views > 10 || pinned = true)')
 */
export function parseFilter(filter: string, limits: FilterLimits = defaultFilterLimits): FilterNode | null {
  if (typeof filter !== 'string') throw invalidFilter('expected a string');
  if (filter.length > limits.maxLength) {
    throw invalidFilter(`longer than the maximum of ${limits.maxLength} characters`);
  }
  const parser = new Parser(tokenize(filter), effectiveLimits(limits));
  return parser.parseFilter();
}

function describeToken(token: Token): string {
  switch (token.type) {
    case 'end': return 'end of filter';
    case 'operator': return `'${token.operator}'`;
    case 'identifier': return `identifier ${quote(token.text)}`;
    case 'string': return `string ${quote(token.value)}`;
    case 'number': return `number ${token.text}`;
    default: return `'${token.type}'`;
  }
}

class Parser {
  private index = 0;
  private expressions = 0;

  constructor(private readonly tokens: Token[], private readonly limits: FilterLimits) {}

  parseFilter(): FilterNode | null {
    if (this.peek().type === 'end') return null;
    const node = this.parseOr(0);
    const next = this.peek();
    if (next.type !== 'end') throw this.unexpected(next);
    return node;
  }

  private peek(): Token {
    // tokenize() always ends with an 'end' token, and we never advance past it.
    return this.tokens[this.index] ?? (this.tokens[this.tokens.length - 1] as Token);
  }

  private advance(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.index += 1;
    return token;
  }

  private unexpected(token: Token): Error {
    return invalidFilter(`unexpected ${describeToken(token)} at position ${token.position}`);
  }

  private parseOr(depth: number): FilterNode {
    const children = [this.parseAnd(depth)];
    while (this.peek().type === '||') {
      this.advance();
      children.push(this.parseAnd(depth));
    }
    return children.length === 1 ? (children[0] as FilterNode) : { type: 'or', children };
  }

  private parseAnd(depth: number): FilterNode {
    const children = [this.parsePrimary(depth)];
    while (this.peek().type === '&&') {
      this.advance();
      children.push(this.parsePrimary(depth));
    }
    return children.length === 1 ? (children[0] as FilterNode) : { type: 'and', children };
  }

  private parsePrimary(depth: number): FilterNode {
    const token = this.peek();
    if (token.type !== '(') return this.parseComparison();
    if (depth + 1 > this.limits.maxDepth) {
      throw invalidFilter(`parentheses nested deeper than ${this.limits.maxDepth} levels at position ${token.position}`);
    }
    this.advance();
    const node = this.parseOr(depth + 1);
    const closing = this.advance();
    if (closing.type !== ')') throw this.unexpected(closing);
    return node;
  }

  private parseComparison(): Comparison {
    const first = this.peek();
    const left = this.parseOperand();
    const operatorToken = this.advance();
    if (operatorToken.type !== 'operator') throw this.unexpected(operatorToken);
    const right = this.parseOperand();
    this.expressions += 1;
    if (this.expressions > this.limits.maxExpressions) {
      throw invalidFilter(`more than ${this.limits.maxExpressions} expressions`);
    }
    return { type: 'comparison', left, operator: operatorToken.operator, right, position: first.position };
  }

  private parseOperand(): Operand {
    const token = this.advance();
    switch (token.type) {
      case 'string': return { type: 'string', value: token.value, position: token.position };
      case 'number': return { type: 'number', value: token.value, position: token.position };
      case 'identifier': return this.identifierOperand(token.text, token.position);
      default: throw this.unexpected(token);
    }
  }

  private identifierOperand(text: string, position: number): Operand {
    if (text === 'null') return { type: 'null', position };
    if (text === 'true' || text === 'false') return { type: 'boolean', value: text === 'true', position };
    if (macros.has(text)) return { type: 'macro', name: text as MacroName, position };
    return this.parseIdentifier(text, position);
  }

  private parseIdentifier(raw: string, position: number): Identifier {
    return { type: 'identifier', raw, position, ...splitIdentifier(raw, this.limits, (detail) => invalidFilter(`${detail} at position ${position}`)) };
  }
}

/**
 * Splits `a.b.c:modifier` into path segments and modifier, enforcing the path-depth limit.
 * Shared with the sort compiler, whose fields follow the same identifier rules.
 */
export function splitIdentifier(
  raw: string,
  limits: FilterLimits,
  fail: (detail: string) => FilterError,
): { path: string[]; modifier: string | null } {
  const { maxPathDepth } = effectiveLimits(limits);
  const colon = raw.indexOf(':');
  const path = (colon === -1 ? raw : raw.slice(0, colon)).split('.');
  const modifier = colon === -1 ? null : raw.slice(colon + 1);
  const malformed =
    path.some((segment) => segment === '') ||
    (modifier !== null && (modifier === '' || modifier.includes(':') || modifier.includes('.')));
  if (malformed) throw fail(`malformed identifier ${quote(raw)}`);
  if (path.length - 1 > maxPathDepth) {
    throw fail(`path ${quote(raw)} has more than ${maxPathDepth} relation hops`);
  }
  return { path, modifier };
}
