import { sql, type Expression } from 'kysely';
import { createScope, type FilterContext } from './context';
import { invalidSort, quote } from './errors';
import { splitIdentifier } from './parser';
import { defaultFilterLimits } from './types';

/** PocketBase accepts at most this many sort fields. */
export const maxSortFields = 8;

export interface SortEntry {
  expression: Expression<unknown>;
  direction: 'asc' | 'desc';
  /**
   * Where NULLs go. SQLite (and so PocketBase) treats NULL as the smallest value, PostgreSQL
   * as the largest; `sortClause` spells this out so both databases order alike.
   */
  nulls: 'first' | 'last';
}

const sortFieldPattern = /^[A-Za-z_][A-Za-z0-9_.:]*$/;

/**
 * Compiles a PocketBase `sort` parameter: a comma list of fields, `-field` descending,
 * `+field` or `field` ascending, `@random`. Single-relation paths (`author.username`) sort by
 * the related value; multi-valued paths cannot be sorted by. Throws `FilterError` (400).
 *
 * @example
 * for (const entry of compileSort('-created,author.username', { registry, collection: 'messages' })) {
 *   query = query.orderBy(sortClause(entry));
 * }
 */
export function compileSort(sort: string, context: FilterContext): SortEntry[] {
  const limits = context.limits ?? defaultFilterLimits;
  if (typeof sort !== 'string') throw invalidSort('expected a string');
  if (sort.length > limits.maxLength) throw invalidSort(`longer than the maximum of ${limits.maxLength} characters`);
  const items = sort.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length > maxSortFields) throw invalidSort(`more than ${maxSortFields} fields`);
  if (items.length === 0) return [];
  const scope = createScope(context, invalidSort);

  return items.map((item): SortEntry => {
    const direction = item.startsWith('-') ? 'desc' : 'asc';
    const name = item.startsWith('-') || item.startsWith('+') ? item.slice(1) : item;
    const nulls = direction === 'asc' ? 'first' : 'last';
    if (name === '@random') return { expression: sql`RANDOM()`, direction, nulls };
    if (!sortFieldPattern.test(name)) throw invalidSort(`unknown field ${quote(name)}`);
    const { path, modifier } = splitIdentifier(name, limits, invalidSort);
    const resolved = scope.resolver.resolve(scope.base, { raw: name, path, modifier });
    if (resolved.shape !== 'scalar') throw invalidSort(`cannot sort by the multi-valued field ${quote(name)}`);
    return { expression: resolved.expression, direction, nulls };
  });
}

/** An ORDER BY term with explicit NULL placement, valid in SQLite (3.30+) and PostgreSQL. */
export function sortClause(entry: SortEntry): Expression<unknown> {
  const direction = entry.direction === 'asc' ? sql`ASC` : sql`DESC`;
  const nulls = entry.nulls === 'first' ? sql`NULLS FIRST` : sql`NULLS LAST`;
  return sql`${entry.expression} ${direction} ${nulls}`;
}
