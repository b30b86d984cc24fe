/**
 * The syntax tree of a PocketBase filter expression (fexpr), produced by `parseFilter`.
 *
 * Positions are 0-based character offsets into the filter string, the same convention as
 * `JSON.parse` error messages, so they can be pointed at in an error.
 */

/** Plain operators compare every value of a multi-valued path; `?` forms need at least one. */
export const comparisonOperators = [
  '=', '!=', '>', '>=', '<', '<=', '~', '!~',
  '?=', '?!=', '?>', '?>=', '?<', '?<=', '?~', '?!~',
] as const;

export type ComparisonOperator = (typeof comparisonOperators)[number];

/** The datetime macros; they render as UTC `YYYY-MM-DD HH:MM:SS.sssZ` strings. */
export const macroNames = [
  '@now', '@yesterday', '@tomorrow', '@todayStart', '@todayEnd',
  '@monthStart', '@monthEnd', '@yearStart', '@yearEnd',
] as const;

export type MacroName = (typeof macroNames)[number];

export interface NullLiteral { type: 'null'; position: number }
export interface BooleanLiteral { type: 'boolean'; value: boolean; position: number }
export interface NumberLiteral { type: 'number'; value: number; position: number }
export interface StringLiteral { type: 'string'; value: string; position: number }
export interface MacroLiteral { type: 'macro'; name: MacroName; position: number }

export type Literal = NullLiteral | BooleanLiteral | NumberLiteral | StringLiteral | MacroLiteral;

/**
 * A field path such as `author.username` (path `['author', 'username']`) or
 * `participants:length` (path `['participants']`, modifier `'length'`).
 * Identifiers starting with `@`/`#` keep their prefix in the first segment (`@request`).
 */
export interface Identifier {
  type: 'identifier';
  /** The identifier exactly as written. */
  raw: string;
  path: string[];
  modifier: string | null;
  position: number;
}

export type Operand = Literal | Identifier;

export interface Comparison {
  type: 'comparison';
  left: Operand;
  operator: ComparisonOperator;
  right: Operand;
  position: number;
}

/** `&&` / `||` chains are flattened: `a && b && c` is one node with three children. */
export interface Logical {
  type: 'and' | 'or';
  children: FilterNode[];
}

export type FilterNode = Comparison | Logical;
