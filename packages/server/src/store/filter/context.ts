import type { FilterError } from './errors';
import { PathResolver } from './resolve';
import type { CollectionSchema, FilterLimits, SchemaRegistry } from './types';

/** What the filter and sort compilers need to know about the query they are part of. */
export interface FilterContext {
  registry: SchemaRegistry;
  /** API name of the collection being listed. */
  collection: string;
  /** Clock for the datetime macros; default `new Date()`. */
  now?: Date;
  /** Default `defaultFilterLimits`. */
  limits?: FilterLimits;
  /**
   * How the collection's table is named in the surrounding query, if it is aliased
   * (`selectFrom('messages as m')` → `'m'`). Default: the table name.
   */
  tableAlias?: string;
}

export interface CompileScope {
  resolver: PathResolver;
  base: { schema: CollectionSchema; alias: string };
}

export function createScope(context: FilterContext, fail: (detail: string) => FilterError): CompileScope {
  const resolver = new PathResolver(context.registry, fail);
  const schema = resolver.collection(context.collection);
  return { resolver, base: { schema, alias: context.tableAlias ?? schema.table } };
}
