/**
 * The statement check of @data's DuckDB tool: one read-only query over the chat's tables. It is
 * one of two locks: DuckDB also runs with external access off and its configuration locked
 * (duckdb.ts), so a function this check misses still cannot reach a file or the network.
 */

/** What a person may run: queries and the schema commands that DuckDB plans as queries. */
const allowedKeywords = new Set(['SELECT', 'WITH', 'DESCRIBE', 'SHOW', 'FROM', 'SUMMARIZE']);

/** Table functions that make rows without reading anything. */
const allowedTableFunctions = new Set(['range', 'generate_series', 'unnest']);

/** Functions that read files, reach other databases or the network, or read settings. */
const forbiddenFunction =
  /^(read_|scan_|sniff_|parquet_|glob$|query$|query_table$|iceberg_|delta_|postgres_|mysql_|sqlite_|duckdb_|pragma_|getenv$|current_setting$|getvariable$|which_secret$|load_aws|http|s3|ducklake|json_execute|checkpoint$|force_checkpoint$|enable_|disable_)/i;

/** A refusal worded for the chat. */
export interface SqlRefusal {
  refused: true;
  reason: string;
}

const keywordReasons: Record<string, string> = {
  COPY: 'COPY writes or reads files',
  EXPORT: 'EXPORT writes files',
  IMPORT: 'IMPORT reads files',
  ATTACH: 'ATTACH opens other databases',
  DETACH: 'DETACH changes the attached databases',
  INSTALL: 'INSTALL downloads extensions',
  FORCE: 'INSTALL downloads extensions',
  LOAD: 'LOAD loads extensions',
  PRAGMA: 'PRAGMA changes or reads settings',
  SET: 'SET changes settings',
  RESET: 'RESET changes settings',
  CALL: 'CALL runs table functions',
  CREATE: 'CREATE changes the database',
  DROP: 'DROP changes the database',
  ALTER: 'ALTER changes the database',
  INSERT: 'INSERT changes the database',
  UPDATE: 'UPDATE changes the database',
  DELETE: 'DELETE changes the database',
  EXPLAIN: 'EXPLAIN is not supported here',
};

/** Whether a message reads as SQL (allowed or not) rather than a question in words. */
export function looksLikeSql(text: string): boolean {
  const keyword = leadingKeyword(text);
  return allowedKeywords.has(keyword) || keyword in keywordReasons || ['VACUUM', 'CHECKPOINT', 'TRUNCATE', 'MERGE', 'PIVOT', 'UNPIVOT', 'USE', 'BEGIN', 'COMMIT', 'ROLLBACK'].includes(keyword);
}

/** The first keyword of a statement, past comments, whitespace and opening parentheses. */
export function leadingKeyword(sql: string): string {
  const stripped = sql.replace(/^(\s|\(|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  return (/^[A-Za-z_]+/.exec(stripped)?.[0] ?? '').toUpperCase();
}

const onlyReads = '@data only runs one read-only query: SELECT (or WITH … SELECT), DESCRIBE or SHOW.';

/** The text-level check: the statement kind, before DuckDB parses it. */
export function refuseByKeyword(sql: string): SqlRefusal | undefined {
  const keyword = leadingKeyword(sql);
  if (keyword === '') return { refused: true, reason: `That is not a query. ${onlyReads}` };
  if (allowedKeywords.has(keyword)) return undefined;
  const why = keywordReasons[keyword];
  return { refused: true, reason: why === undefined ? `${keyword} is not allowed. ${onlyReads}` : `${keyword} is not allowed: ${why}. ${onlyReads}` };
}

/** The count check: `SELECT 1; DROP TABLE sales` is two statements. */
export function refuseStatementCount(count: number): SqlRefusal | undefined {
  if (count === 1) return undefined;
  if (count === 0) return { refused: true, reason: `That is not a query. ${onlyReads}` };
  return { refused: true, reason: `That is ${count} statements; send one query at a time. ${onlyReads}` };
}

/**
 * The tree check over DuckDB's own parse (`json_serialize_sql`): every function and table it
 * names. Refuses file and database readers, settings, and tables of other catalogs or files.
 */
export function refuseByTree(tree: unknown): SqlRefusal | undefined {
  let refusal: SqlRefusal | undefined;
  const visit = (node: unknown, parentType: string | undefined): void => {
    if (refusal !== undefined || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, parentType);
      return;
    }
    const record = node as Record<string, unknown>;
    const type = typeof record['type'] === 'string' ? record['type'] : undefined;
    const functionName = record['function_name'];
    if (typeof functionName === 'string') {
      const isTableFunction = parentType === 'TABLE_FUNCTION';
      if (forbiddenFunction.test(functionName) || (isTableFunction && !allowedTableFunctions.has(functionName.toLowerCase()))) {
        refusal = { refused: true, reason: `${functionName}() is not allowed: @data reads only this chat's tables, never files, other databases or the network.` };
        return;
      }
    }
    if (type === 'BASE_TABLE') {
      const catalog = String(record['catalog_name'] ?? '');
      const schema = String(record['schema_name'] ?? '');
      const table = String(record['table_name'] ?? '');
      if (!['', 'memory'].includes(catalog) || !['', 'main'].includes(schema)) {
        refusal = { refused: true, reason: `${[catalog, schema, table].filter(Boolean).join('.')} is not one of this chat's tables; ask "@data tables" for them.` };
        return;
      }
      if (/[./\\:]/.test(table)) {
        refusal = { refused: true, reason: `'${table}' looks like a file: @data reads only this chat's tables; ask "@data tables" for them.` };
        return;
      }
    }
    for (const value of Object.values(record)) visit(value, type);
  };
  visit(tree, undefined);
  return refusal;
}
