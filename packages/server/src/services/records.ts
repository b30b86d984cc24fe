import type { Expression, SqlBool } from 'kysely';
import { ConfabServerError } from '../errors';
import { schemaRegistry } from '../store/filterAllowLists';
import { allOf, columnEquals } from '../store/conditions';
import { compileFilter, compileSort, FilterError, parseFilter, sortClause, type FilterNode } from '../store/filter/index';
import { selectRowPage, selectRows } from '../store/repositories/records';
import type { RecordCollection, RecordJson } from './collections/types';
import type { RequestAuth, ServiceContext } from './context';
import { expandRecords, parseExpand } from './expand';
import { applyFields, parseFields } from './fields';
import type { Body } from './input';
import { recordErrors } from './recordErrors';

export const defaultPerPage = 30;
/** PocketBase caps at 1000; 500 is enough for the SDK's full-list batches and cheaper. */
export const maximumPerPage = 500;

export interface RecordQuery {
  expand?: string;
  fields?: string;
}

export interface ListQuery extends RecordQuery {
  page?: number;
  perPage?: number;
  sort?: string;
  filter?: string;
  skipTotal?: boolean;
}

export interface ListResult {
  items: RecordJson[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

/**
 * The highest page a list serves; higher asks get this (empty) page. It keeps the SQL OFFSET,
 * (page - 1) × perPage, a safe integer for every perPage: 1e9 × 500 is far below 2^53.
 */
export const maximumPage = 1_000_000_000;

/** A page number to use: missing, NaN and below 1 are 1; above `maximumPage` (Infinity too) is the maximum. */
function clampPage(page: number | undefined): number {
  if (page === undefined || Number.isNaN(page) || page < 1) return 1;
  return Math.min(Math.floor(page), maximumPage);
}

function clampPerPage(perPage: number | undefined): number {
  if (perPage === undefined || Number.isNaN(perPage) || perPage < 1) return defaultPerPage;
  return Math.min(Math.floor(perPage), maximumPerPage);
}

/** Filter and sort failures become the server's own error type with the compiler's status. */
function rethrowFilterError(error: unknown): never {
  if (error instanceof FilterError) {
    throw new ConfabServerError(error.status === 403 ? 'forbidden' : 'badRequest', error.message);
  }
  throw error;
}

/** The generic record API over every collection: lists, views, writes, expand and fields. */
/** The ids a filter requires `chat` to equal at its top level (`chat = 'x' && …`). */
export function pinnedChatIds(filter: string): string[] {
  let tree: FilterNode | null;
  try {
    tree = parseFilter(filter);
  } catch {
    return [];
  }
  const terms = tree === null ? [] : tree.type === 'and' ? tree.children : [tree];
  const ids: string[] = [];
  for (const term of terms) {
    if (term.type !== 'comparison' || term.operator !== '=') continue;
    const [field, value] = term.left.type === 'identifier' ? [term.left, term.right] : [term.right, term.left];
    if (field.type === 'identifier' && field.raw === 'chat' && value.type === 'string') ids.push(value.value);
  }
  return ids;
}

export class RecordsService {
  constructor(
    private readonly context: ServiceContext,
    private readonly collections: Map<string, RecordCollection>,
  ) {}

  collection(name: string): RecordCollection {
    const collection = this.collections.get(name);
    if (collection === undefined) throw new ConfabServerError('notFound', 'Missing collection context.');
    return collection;
  }

  private async render(collection: RecordCollection, rows: unknown[], auth: RequestAuth, query: RecordQuery, viewAs = auth) {
    const fields = parseFields(query.fields);
    // A collection may skip the work behind fields the caller did not ask for (the chats' read state).
    const wanted = (field: string) => fields === undefined || fields.children.has('*') || fields.children.has(field);
    const records = await collection.serialize(rows, viewAs, wanted);
    await expandRecords(records, collection, parseExpand(query.expand), {
      auth,
      store: this.context.store,
      collections: this.collections,
    });
    return records.map((record) => applyFields(record, fields));
  }

  async list(name: string, auth: RequestAuth, query: ListQuery): Promise<ListResult> {
    const collection = this.collection(name);
    const page = clampPage(query.page);
    const perPage = clampPerPage(query.perPage);
    const filterContext = { registry: schemaRegistry, collection: collection.name, now: this.context.config.now() };
    let condition: Expression<SqlBool>;
    let order: Expression<unknown>[];
    try {
      condition = allOf([collection.viewCondition(auth), compileFilter(query.filter ?? '', filterContext)]);
      order = compileSort(query.sort ?? '', filterContext).map(sortClause);
    } catch (error) {
      rethrowFilterError(error);
    }
    await collection.checkList?.(auth, pinnedChatIds(query.filter ?? ''));
    const skipTotal = query.skipTotal === true;
    const result = await selectRowPage(this.context.store.database.db, {
      table: collection.table,
      condition,
      order,
      page,
      perPage,
      skipTotal,
    });
    const items = await this.render(collection, result.rows, auth, query);
    const totalPages = skipTotal ? -1 : Math.ceil(result.totalItems / perPage);
    return { items, page, perPage, totalItems: result.totalItems, totalPages };
  }

  private async findRow(collection: RecordCollection, id: string, condition?: Expression<SqlBool>): Promise<unknown> {
    const byId = columnEquals(`${collection.table}.id`, id);
    const rows = await selectRows(this.context.store.database.db, collection.table, condition ? allOf([byId, condition]) : byId);
    return rows[0];
  }

  async view(name: string, auth: RequestAuth, id: string, query: RecordQuery): Promise<RecordJson> {
    const collection = this.collection(name);
    const row = await this.findRow(collection, id, collection.viewCondition(auth));
    if (row === undefined) throw recordErrors.notFound();
    const [record] = await this.render(collection, [row], auth, query);
    if (record === undefined) throw recordErrors.notFound();
    return record;
  }

  /** The written record, shown to whoever the write allows (the caller, or a new account's owner). */
  private async renderWritten(collection: RecordCollection, id: string, auth: RequestAuth, query: RecordQuery, viewAs = auth, stored?: unknown) {
    const row = stored ?? (await this.findRow(collection, id));
    if (row === undefined) throw recordErrors.notFound();
    const [record] = await this.render(collection, [row], auth, query, viewAs);
    if (record === undefined) throw recordErrors.notFound();
    return record;
  }

  async create(name: string, auth: RequestAuth, body: Body, query: RecordQuery): Promise<RecordJson> {
    const collection = this.collection(name);
    const created = await collection.create(auth, body);
    return this.renderWritten(collection, created.id, auth, query, created.viewAs ?? auth, created.row);
  }

  async update(name: string, auth: RequestAuth, id: string, body: Body, query: RecordQuery): Promise<RecordJson> {
    const collection = this.collection(name);
    await collection.update(auth, id, body);
    return this.renderWritten(collection, id, auth, query);
  }

  async delete(name: string, auth: RequestAuth, id: string): Promise<void> {
    await this.collection(name).delete(auth, id);
  }
}
