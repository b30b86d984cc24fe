import { sql, type Expression, type SqlBool } from 'kysely';
import type { Comparison, FilterNode, Operand } from './ast';
import { createScope, type CompileScope, type FilterContext } from './context';
import { FilterError, invalidFilter, quote } from './errors';
import { macroValue } from './macros';
import { alwaysTrue, compareSides, type BaseOperator, type Side } from './operators';
import { parseFilter } from './parser';
import type { ResolvedPath } from './resolve';
import { defaultFilterLimits } from './types';

type OperandValue = { type: 'literal'; side: Side } | { type: 'path'; path: ResolvedPath };

const absent: Side = { type: 'literal', value: null };

/**
 * Compiles a client's PocketBase filter into a Kysely boolean expression for a WHERE clause.
 * Literals are bound parameters; tables and columns come only from `context.registry`.
 * An empty filter compiles to an always-true condition.
 *
 * Throws only `FilterError`: 400 for malformed filters, unknown or hidden fields and exceeded
 * limits; 403 for `@request.` / `@collection.` identifiers, which only API rules may use.
 * (A registry naming a collection it does not define is a server bug: that is a TypeError.)
 *
 * @example
 * db.selectFrom('messages').selectAll()
 *   .where(sql<SqlBool>`(${listRule}) AND (${compileFilter('author.username = "ann"', { registry, collection: 'messages' })})`)
 */
export function compileFilter(filter: string, context: FilterContext): Expression<SqlBool> {
  const root = parseFilter(filter, context.limits ?? defaultFilterLimits);
  if (root === null) return alwaysTrue;
  const scope = createScope(context, invalidFilter);
  // Parenthesised so it can be ANDed with a list rule without any precedence surprises.
  return sql<SqlBool>`(${compileNode(root, scope, context.now ?? new Date())})`;
}

function compileNode(node: FilterNode, scope: CompileScope, now: Date): Expression<SqlBool> {
  if (node.type === 'comparison') return compileComparison(node, scope, now);
  // Depth is bounded by the parser's parenthesis limit, so this recursion is too.
  const parts = node.children.map((child) => compileNode(child, scope, now));
  return sql<SqlBool>`(${sql.join(parts, node.type === 'and' ? sql` AND ` : sql` OR `)})`;
}

function operandValue(operand: Operand, scope: CompileScope, now: Date): OperandValue {
  switch (operand.type) {
    case 'null': return { type: 'literal', side: { type: 'literal', value: null } };
    case 'boolean':
    case 'number': return { type: 'literal', side: { type: 'literal', value: operand.value } };
    case 'macro': return { type: 'literal', side: { type: 'literal', value: macroValue(operand.name, now) } };
    case 'string':
      // PostgreSQL text cannot hold NUL; refusing it keeps both databases answering alike.
      if (operand.value.includes('\u0000')) throw invalidFilter(`strings may not contain NUL characters (position ${operand.position})`);
      return { type: 'literal', side: { type: 'literal', value: operand.value } };
    case 'identifier': {
      const [head] = operand.path;
      if (head === '@request' || head === '@collection') {
        throw new FilterError(`Invalid filter: ${quote(operand.raw)} may only be used in API rules.`, 'forbidden');
      }
      return { type: 'path', path: scope.resolver.resolve(scope.base, operand) };
    }
  }
}

/**
 * Applies `body` to the value(s) of an operand. For a multi-valued path a `?` operator needs
 * one matching value; a plain operator needs every value to match, and an empty set is
 * judged like a missing value (PocketBase's LEFT JOIN yields one NULL row for it).
 */
function quantify(value: OperandValue, anyOf: boolean, body: (side: Side) => Expression<SqlBool>): Expression<SqlBool> {
  if (value.type === 'literal') return body(value.side);
  const path = value.path;
  if (path.shape === 'scalar') return body({ type: 'expression', expression: path.expression, kind: path.kind });
  const each = (expression: Expression<unknown>): Side => ({ type: 'expression', expression, kind: path.kind });
  if (anyOf) return path.some((expression) => body(each(expression)));
  // IS NOT TRUE also counts NULL results as failures, so "every" cannot be satisfied by NULLs.
  const counterexample = path.some((expression) => sql<SqlBool>`(${body(each(expression))}) IS NOT TRUE`);
  return sql<SqlBool>`(NOT ${counterexample} AND (${path.exists} OR ${body(absent)}))`;
}

function compileComparison(node: Comparison, scope: CompileScope, now: Date): Expression<SqlBool> {
  const anyOf = node.operator.startsWith('?');
  const operator = (anyOf ? node.operator.slice(1) : node.operator) as BaseOperator;
  const left = operandValue(node.left, scope, now);
  const right = operandValue(node.right, scope, now);
  return quantify(left, anyOf, (leftSide) =>
    quantify(right, anyOf, (rightSide) => compareSides(operator, leftSide, rightSide)),
  );
}
