/**
 * The contract between the record API and the filter/sort compiler.
 *
 * Every collection describes the fields a client may filter and sort on (an allow-list);
 * anything not listed here is rejected with a 400, so hidden fields (password hashes, e-mails
 * of other users, encrypted keys) can never be used as an oracle.
 */

export type ScalarKind = 'text' | 'number' | 'bool' | 'date' | 'json';

export type FilterField =
  /** A plain column of the collection's table. `column` is the bare column name. */
  | { kind: ScalarKind; column: string }
  /** A single relation: `column` holds the id of a record of `target`. */
  | { kind: 'relation'; column: string; target: string }
  /**
   * A multi relation kept in a join table: rows (`ownerColumn` = this record's id,
   * `valueColumn` = a related id).
   */
  | { kind: 'multiRelation'; joinTable: string; ownerColumn: string; valueColumn: string; target: string };

export interface CollectionSchema {
  /** API name of the collection, e.g. "messages". */
  name: string;
  /** SQL table name. Its primary key column is `id`. */
  table: string;
  /** Filterable and sortable fields by API name (include `id`, `created`, `updated`). */
  fields: Record<string, FilterField>;
}

/** All collections by API name, so relation paths (`author.username`) can be followed. */
export type SchemaRegistry = Record<string, CollectionSchema>;

export interface FilterLimits {
  /** Maximum filter length in characters (PocketBase: 3500). */
  maxLength: number;
  /** Maximum number of comparison expressions (PocketBase: 200). */
  maxExpressions: number;
  /** Maximum nesting depth of parentheses. */
  maxDepth: number;
  /** Maximum relation hops in one path (`a.b.c` is 2 hops). */
  maxPathDepth: number;
}

export const defaultFilterLimits: FilterLimits = {
  maxLength: 3500,
  maxExpressions: 200,
  maxDepth: 20,
  maxPathDepth: 6,
} as const;
