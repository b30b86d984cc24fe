import { sql, type Expression, type SqlBool } from 'kysely';
import { invalidFilter, quote } from './errors';
import type { ScalarKind } from './types';

export type LiteralValue = null | boolean | number | string;

/** One side of a comparison: a user literal (always bound) or SQL built from the allow-list. */
export type Side =
  | { type: 'literal'; value: LiteralValue }
  | { type: 'expression'; expression: Expression<unknown>; kind: ScalarKind };

type ExpressionSide = Extract<Side, { type: 'expression' }>;

export type BaseOperator = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~' | '!~';

// Constants written as comparisons: bare TRUE/FALSE are not portable to every SQLite build.
export const alwaysTrue = sql<SqlBool>`1 = 1`;
export const alwaysFalse = sql<SqlBool>`1 = 0`;

const isNumeric = (kind: ScalarKind): boolean => kind === 'number' || kind === 'bool';
/** PocketBase treats `null` and `""` alike in `=`/`!=`: both mean "empty". */
const isEmptyLiteral = (side: Side): boolean => side.type === 'literal' && (side.value === null || side.value === '');

/**
 * A literal compared with something of its own type. Numbers are cast to DOUBLE PRECISION
 * (valid in both SQLite and PostgreSQL) so `10.5` or a huge integer never fails to convert
 * into a PostgreSQL INTEGER column's type.
 */
function literalAsExpression(value: Exclude<LiteralValue, null>): ExpressionSide {
  if (typeof value === 'string') return { type: 'expression', expression: sql`CAST(${value} AS TEXT)`, kind: 'text' };
  const number = typeof value === 'boolean' ? Number(value) : value;
  return { type: 'expression', expression: sql`CAST(${number} AS DOUBLE PRECISION)`, kind: typeof value === 'boolean' ? 'bool' : 'number' };
}

function toNumber(value: Exclude<LiteralValue, null>): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return Number(value);
  const text = value.trim();
  if (text === 'true' || text === 'false') return Number(text === 'true');
  const number = Number(text);
  return text !== '' && Number.isFinite(number) ? number : undefined;
}

/** Binds `value` with the JS type the column's kind needs, so no dialect has to guess. */
function bindAs(kind: ScalarKind, value: Exclude<LiteralValue, null>): Expression<unknown> {
  if (!isNumeric(kind)) return sql`${String(value)}`;
  const number = toNumber(value);
  if (number === undefined) throw invalidFilter(`${quote(String(value))} is not a number`);
  return sql`CAST(${number} AS DOUBLE PRECISION)`;
}

function assertComparable(left: ExpressionSide, right: ExpressionSide): void {
  if (isNumeric(left.kind) !== isNumeric(right.kind)) {
    throw invalidFilter(`cannot compare a ${left.kind} value with a ${right.kind} value`);
  }
}

function equals(field: ExpressionSide, other: Side): Expression<SqlBool> {
  if (isEmptyLiteral(other)) {
    return isNumeric(field.kind)
      ? sql<SqlBool>`${field.expression} IS NULL`
      : sql<SqlBool>`COALESCE(${field.expression}, '') = ''`;
  }
  if (other.type === 'literal') return sql<SqlBool>`${field.expression} = ${bindAs(field.kind, other.value as Exclude<LiteralValue, null>)}`;
  assertComparable(field, other);
  return isNumeric(field.kind)
    ? sql<SqlBool>`${field.expression} IS NOT DISTINCT FROM ${other.expression}`
    : sql<SqlBool>`COALESCE(${field.expression}, '') = COALESCE(${other.expression}, '')`;
}

function notEquals(field: ExpressionSide, other: Side): Expression<SqlBool> {
  if (isEmptyLiteral(other)) {
    return isNumeric(field.kind)
      ? sql<SqlBool>`${field.expression} IS NOT NULL`
      : sql<SqlBool>`COALESCE(${field.expression}, '') <> ''`;
  }
  if (other.type === 'literal') {
    // Null-tolerant: a missing value differs from any non-empty literal. COALESCE (text) and
    // IS DISTINCT FROM (numbers) say so without evaluating a relation subquery twice.
    const value = bindAs(field.kind, other.value as Exclude<LiteralValue, null>);
    return isNumeric(field.kind)
      ? sql<SqlBool>`${field.expression} IS DISTINCT FROM ${value}`
      : sql<SqlBool>`COALESCE(${field.expression}, '') <> ${value}`;
  }
  assertComparable(field, other);
  return isNumeric(field.kind)
    ? sql<SqlBool>`${field.expression} IS DISTINCT FROM ${other.expression}`
    : sql<SqlBool>`COALESCE(${field.expression}, '') <> COALESCE(${other.expression}, '')`;
}

function ordering(operator: '>' | '>=' | '<' | '<=', left: Side, right: Side): Expression<SqlBool> {
  // Nothing is greater or smaller than null, as in SQL.
  if ((left.type === 'literal' && left.value === null) || (right.type === 'literal' && right.value === null)) return alwaysFalse;
  const kind = left.type === 'expression' ? left.kind : (right as ExpressionSide).kind;
  const render = (side: Side): Expression<unknown> => {
    if (side.type === 'expression') return side.expression;
    if (isNumeric(kind) && side.value === '') return sql`NULL`;
    return bindAs(kind, side.value as Exclude<LiteralValue, null>);
  };
  if (left.type === 'expression' && right.type === 'expression') assertComparable(left, right);
  return sql<SqlBool>`${render(left)} ${sql.raw(operator)} ${render(right)}`;
}

const isLikeSpecial = (char: string | undefined): boolean => char === '\\' || char === '%' || char === '_';

/**
 * Turns a `~` value into a LIKE pattern (escape character `\`), as PocketBase does: unless
 * the value has its own unescaped `%` (then it is a pattern the user wrote), escape `\ % _`
 * and wrap in `%…%`. A backslash already escaping one of those is kept, so `"50\%"` still
 * means a literal "50%".
 */
export function likePattern(value: string): string {
  let escaped = '';
  let hasOwnWildcard = false;
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index] as string;
    if (char === '\\' && isLikeSpecial(value[index + 1])) {
      escaped += char + (value[index + 1] as string);
      index += 1;
    } else {
      if (char === '%') hasOwnWildcard = true;
      escaped += isLikeSpecial(char) ? `\\${char}` : char;
    }
  }
  return hasOwnWildcard ? closeDanglingEscape(value) : `%${escaped}%`;
}

/** PostgreSQL rejects a pattern ending in its escape character; SQLite silently never matches. */
function closeDanglingEscape(pattern: string): string {
  let index = 0;
  let dangling = false;
  while (index < pattern.length) {
    dangling = pattern[index] === '\\' && index === pattern.length - 1;
    index += pattern[index] === '\\' ? 2 : 1;
  }
  return dangling ? `${pattern}\\` : pattern;
}

function asText(side: ExpressionSide): Expression<unknown> {
  return isNumeric(side.kind) ? sql`CAST(${side.expression} AS TEXT)` : side.expression;
}

function like(negated: boolean, left: Side, right: Side): Expression<SqlBool> {
  const subject = left.type === 'literal' ? sql`CAST(${String(left.value ?? '')} AS TEXT)` : asText(left);
  // A pattern taken from a column is matched literally: its own \ % _ are escaped in SQL.
  const pattern = right.type === 'literal'
    ? sql`CAST(${likePattern(String(right.value ?? ''))} AS TEXT)`
    : sql`'%' || REPLACE(REPLACE(REPLACE(COALESCE(${asText(right)}, ''), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
  // LOWER on both sides: PocketBase's LIKE is case-insensitive, PostgreSQL's is not.
  return negated
    ? sql<SqlBool>`LOWER(COALESCE(${subject}, '')) NOT LIKE LOWER(${pattern}) ESCAPE '\\'`
    : sql<SqlBool>`LOWER(${subject}) LIKE LOWER(${pattern}) ESCAPE '\\'`;
}

/**
 * Renders `left OP right` for single values. Literals are bound parameters; an empty value
 * (`null` or `""`) follows PocketBase's null-tolerant rules for `=` and `!=`.
 */
export function compareSides(operator: BaseOperator, left: Side, right: Side): Expression<SqlBool> {
  if (left.type === 'literal' && right.type === 'literal') {
    // LIKE binds literals as their text; a cast number would print as "10.0" in SQLite, "10" in PostgreSQL.
    if (operator === '~' || operator === '!~') return like(operator === '!~', left, right);
    if (left.value === null && right.value === null) return operator === '=' ? alwaysTrue : alwaysFalse;
    // Give one side a type of its own so the other can be bound against it.
    if (left.value !== null) return compareSides(operator, literalAsExpression(left.value), right);
    return compareSides(operator, left, literalAsExpression(right.value as Exclude<LiteralValue, null>));
  }
  switch (operator) {
    case '=':
      return left.type === 'expression' ? equals(left, right) : equals(right as ExpressionSide, left);
    case '!=':
      return left.type === 'expression' ? notEquals(left, right) : notEquals(right as ExpressionSide, left);
    case '~':
    case '!~':
      return like(operator === '!~', left, right);
    default:
      return ordering(operator, left, right);
  }
}
