import type { ListQuery, RecordQuery } from '../services/records';

type Query = Record<string, unknown>;

/** Repeated query keys arrive as arrays; the first value wins. */
function first(query: Query, key: string): string | undefined {
  const value = query[key];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Plain decimal integers only (no '1e5', '0x10', '1.5' or non-ASCII digits): anything else is
 * undefined, the default. The number may be huge, even Infinity: services/records.ts clamps it,
 * so a page past the end is an empty page, never a failing query.
 */
function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d+$/.test(text.trim())) return undefined;
  return Number.parseInt(text, 10);
}

function truthy(text: string | undefined): boolean {
  return text !== undefined && ['1', 'true', 't', 'yes', 'on'].includes(text.trim().toLowerCase());
}

export function readRecordQuery(query: unknown): RecordQuery {
  const values = (query ?? {}) as Query;
  return { expand: first(values, 'expand'), fields: first(values, 'fields') };
}

export function readListQuery(query: unknown): ListQuery {
  const values = (query ?? {}) as Query;
  return {
    ...readRecordQuery(query),
    page: integer(first(values, 'page')),
    perPage: integer(first(values, 'perPage')),
    sort: first(values, 'sort'),
    filter: first(values, 'filter'),
    skipTotal: truthy(first(values, 'skipTotal')),
  };
}
