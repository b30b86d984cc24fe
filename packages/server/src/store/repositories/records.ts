import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../schema';

export interface RowPageQuery {
  table: 'users' | 'chats' | 'messages' | 'files';
  condition: Expression<SqlBool>;
  /** Complete ORDER BY terms (expression, direction and NULLS placement). */
  order: readonly Expression<unknown>[];
  page: number;
  perPage: number;
  skipTotal: boolean;
}

export interface RowPage<Row> {
  rows: Row[];
  totalItems: number;
}

/**
 * Generic paged read of one record table. The condition already holds the access rule ANDed with
 * the client's filter; the id tie-breaker keeps pages stable when sort values repeat.
 */
export async function selectRowPage<Row>(db: Kysely<Database>, query: RowPageQuery): Promise<RowPage<Row>> {
  // Table names come from a closed union, so a dynamic builder is safe here.
  const dynamic = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  let select = dynamic.selectFrom(query.table).selectAll(query.table).where(query.condition);
  for (const term of query.order) select = select.orderBy(term);
  select = select.orderBy(sql.ref(`${query.table}.id`), 'asc');
  const rows = (await select.limit(query.perPage).offset((query.page - 1) * query.perPage).execute()) as Row[];
  if (query.skipTotal) return { rows, totalItems: -1 };
  const counted = await dynamic
    .selectFrom(query.table)
    .select(sql<number | string>`count(*)`.as('count'))
    .where(query.condition)
    .executeTakeFirst();
  return { rows, totalItems: Number(counted?.['count'] ?? 0) };
}

/** Rows of `table` matching a condition (used for views and expansions). */
export async function selectRows<Row>(
  db: Kysely<Database>,
  table: RowPageQuery['table'],
  condition: Expression<SqlBool>,
): Promise<Row[]> {
  const dynamic = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  return (await dynamic.selectFrom(table).selectAll(table).where(condition).execute()) as Row[];
}
