import { sql, type Expression, type SqlBool } from 'kysely';
import { quote, type FilterError } from './errors';
import type { CollectionSchema, FilterField, ScalarKind, SchemaRegistry } from './types';

/** A path with one value per record: a column, a single-relation subquery or a count. */
export interface ScalarPath {
  shape: 'scalar';
  expression: Expression<unknown>;
  kind: ScalarKind;
}

/** A path through a multi relation: a set of values per record, tested with EXISTS. */
export interface MultiPath {
  shape: 'multi';
  kind: ScalarKind;
  /** EXISTS (a value of the set for which `condition(value)` holds). */
  some(condition: (value: Expression<unknown>) => Expression<SqlBool>): Expression<SqlBool>;
  /** EXISTS (any value at all): the set is not empty. */
  exists: Expression<SqlBool>;
}

export type ResolvedPath = ScalarPath | MultiPath;

export interface PathInput {
  raw: string;
  path: string[];
  modifier: string | null;
}

/**
 * Turns a field path into SQL. Every table and column name comes from the schema registry
 * (the allow-list); user text is only ever used as a key to look names up, never as SQL.
 * Aliases are generated (`_f1`, `_f2`…) so self-relations cannot shadow the outer table.
 */
export class PathResolver {
  private aliasCount = 0;

  constructor(
    private readonly registry: SchemaRegistry,
    private readonly fail: (detail: string) => FilterError,
  ) {}

  collection(name: string): CollectionSchema {
    const schema = Object.hasOwn(this.registry, name) ? this.registry[name] : undefined;
    // A missing collection is a bug in the server's registry, not bad user input.
    if (!schema) throw new TypeError(`Filter schema registry has no collection "${name}".`);
    return schema;
  }

  resolve(base: { schema: CollectionSchema; alias: string }, input: PathInput): ResolvedPath {
    return this.resolveFrom(base.schema, base.alias, input, 0);
  }

  private nextAlias(): string {
    this.aliasCount += 1;
    return `_f${this.aliasCount}`;
  }

  private field(schema: CollectionSchema, name: string, input: PathInput): FilterField {
    const field = Object.hasOwn(schema.fields, name) ? schema.fields[name] : undefined;
    if (!field) throw this.fail(`unknown field ${quote(input.raw)}`);
    return field;
  }

  private resolveFrom(schema: CollectionSchema, alias: string, input: PathInput, index: number): ResolvedPath {
    const field = this.field(schema, input.path[index] as string, input);
    if (index === input.path.length - 1) return this.terminal(field, alias, input);

    if (field.kind === 'relation') {
      const target = this.collection(field.target);
      const next = this.nextAlias();
      const inner = this.resolveFrom(target, next, input, index + 1);
      const from = sql`${sql.id(target.table)} AS ${sql.id(next)}`;
      const link = sql`${sql.id(next, 'id')} = ${sql.id(alias, field.column)}`;
      if (inner.shape === 'scalar') {
        // A scalar subquery yields NULL for an empty relation, which the null-tolerant
        // operators then treat like PocketBase's LEFT JOIN does.
        return { shape: 'scalar', kind: inner.kind, expression: sql`(SELECT ${inner.expression} FROM ${from} WHERE ${link})` };
      }
      return {
        shape: 'multi',
        kind: inner.kind,
        some: (condition) => sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${link} AND ${inner.some(condition)})`,
        exists: sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${link} AND ${inner.exists})`,
      };
    }

    if (field.kind === 'multiRelation') {
      const target = this.collection(field.target);
      const join = this.nextAlias();
      const next = this.nextAlias();
      const inner = this.resolveFrom(target, next, input, index + 1);
      const from = sql`${sql.id(field.joinTable)} AS ${sql.id(join)} INNER JOIN ${sql.id(target.table)} AS ${sql.id(next)} ON ${sql.id(next, 'id')} = ${sql.id(join, field.valueColumn)}`;
      const owner = sql`${sql.id(join, field.ownerColumn)} = ${sql.id(alias, 'id')}`;
      return {
        shape: 'multi',
        kind: inner.kind,
        some: (condition) => {
          const test = inner.shape === 'scalar' ? condition(inner.expression) : inner.some(condition);
          return sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${owner} AND ${test})`;
        },
        exists: inner.shape === 'scalar'
          ? sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${owner})`
          : sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${owner} AND ${inner.exists})`,
      };
    }

    throw this.fail(`unknown field ${quote(input.raw)}`);
  }

  private terminal(field: FilterField, alias: string, input: PathInput): ResolvedPath {
    if (input.modifier === 'length') {
      if (field.kind !== 'multiRelation') throw this.fail(`":length" needs a multi relation in ${quote(input.raw)}`);
      const join = this.nextAlias();
      return {
        shape: 'scalar',
        kind: 'number',
        expression: sql`(SELECT COUNT(*) FROM ${sql.id(field.joinTable)} AS ${sql.id(join)} WHERE ${sql.id(join, field.ownerColumn)} = ${sql.id(alias, 'id')})`,
      };
    }
    if (input.modifier !== null && input.modifier !== 'lower') {
      throw this.fail(`unknown modifier ${quote(`:${input.modifier}`)} in ${quote(input.raw)}`);
    }
    const lower = input.modifier === 'lower';

    if (field.kind === 'multiRelation') {
      const join = this.nextAlias();
      const from = sql`${sql.id(field.joinTable)} AS ${sql.id(join)}`;
      const owner = sql`${sql.id(join, field.ownerColumn)} = ${sql.id(alias, 'id')}`;
      const value = sql.id(join, field.valueColumn);
      return {
        shape: 'multi',
        kind: 'text',
        some: (condition) => sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${owner} AND ${condition(lower ? sql`LOWER(${value})` : value)})`,
        exists: sql<SqlBool>`EXISTS (SELECT 1 FROM ${from} WHERE ${owner})`,
      };
    }
    // A single relation compares by the id it holds.
    const kind: ScalarKind = field.kind === 'relation' ? 'text' : field.kind;
    const column = sql.id(alias, field.column);
    if (lower && (kind === 'number' || kind === 'bool')) {
      throw this.fail(`":lower" needs a text field in ${quote(input.raw)}`);
    }
    return { shape: 'scalar', kind, expression: lower ? sql`LOWER(${column})` : column };
  }
}
