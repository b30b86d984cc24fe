export type {
  Comparison,
  ComparisonOperator,
  FilterNode,
  Identifier,
  Literal,
  Logical,
  MacroName,
  Operand,
} from './ast';
export { compileFilter } from './compile';
export type { FilterContext } from './context';
export { FilterError, filterErrorCodes } from './errors';
export type { FilterErrorCode } from './errors';
export { formatDateTime } from './macros';
export { parseFilter } from './parser';
export { compileSort, maxSortFields, sortClause } from './sort';
export type { SortEntry } from './sort';
export { defaultFilterLimits } from './types';
export type { CollectionSchema, FilterField, FilterLimits, ScalarKind, SchemaRegistry } from './types';
