import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { defaultQueryTimeoutMs } from './queryLimits';
import { refuseByKeyword, refuseByTree, refuseStatementCount } from './sqlCheck';
import { quoteIdentifier, quoteLiteral, uniqueTableName } from './tableNames';
import type { SheetLimits } from './sheetSize';
import { loadXlsx } from './xlsx';

/** One of the chat's uploaded files, as the tool loads it. */
export interface ChatDataFile {
  originalName: string;
  /** The stored file on disk: `<dataDir>/files/<chat id>/<file id>/<stored name>`, or a local copy of it. */
  path: string;
  size: number;
  /**
   * Set when the bytes are in a bucket, not on this machine: the job then fetches a copy into its
   * own folder first and `path` becomes that copy (hosted/dataJobs.ts).
   */
  key?: string;
}

/** Files above this size are not loaded (nor fetched from a bucket). */
export const defaultMaxDataFileBytes = 50 * 1024 * 1024;

export interface TableInfo {
  name: string;
  /** The upload it came from. */
  file: string;
  columns: { name: string; type: string }[];
  rowCount: number;
}

export interface QueryResult {
  ok: true;
  columns: { name: string; type: string }[];
  /** The first `keepRows` rows, values as JSON (numbers, strings, booleans, null). */
  rows: (string | number | boolean | null)[][];
  /** Every row of the result, counted up to `countRowsUpTo`. */
  rowCount: number;
  /** True when there were more than `countRowsUpTo` rows. */
  rowCountCapped: boolean;
}

export interface QueryFailure {
  ok: false;
  kind: 'refused' | 'timeout' | 'error';
  message: string;
}

export interface ChatDatabaseOptions {
  /** Default '256MB'. */
  memoryLimit?: string;
  /** Default 2. */
  threads?: number;
  /** Files above this size are skipped. Default 50 MB. */
  maxFileBytes?: number;
  /**
   * Where DuckDB may spill what does not fit in memory, and how much (docs/SECURITY.md H12).
   * Without one nothing spills: a query that needs more memory fails. DuckDB's own default would
   * be `.tmp` in the working directory, without a useful bound.
   */
  spill?: { directory: string; maxBytes: number };
  /** The caps a spreadsheet must be within to be loaded (docs/SECURITY.md H10). */
  sheetLimits?: SheetLimits;
  /** Told before each file is loaded: the job's process dying then names the file that killed it. */
  onLoading?: (file: ChatDataFile) => void;
}

export interface QueryOptions {
  /** The query is interrupted after this long. Default 10,000 ms. */
  timeoutMs?: number;
  /** Rows kept for the answer. Default 100. */
  keepRows?: number;
  /** Rows counted beyond those kept. Default 100,000. */
  countRowsUpTo?: number;
}

const readers: Record<string, (path: string) => string> = {
  csv: (path) => `read_csv_auto(${quoteLiteral(path)})`,
  tsv: (path) => `read_csv_auto(${quoteLiteral(path)}, delim='\t')`,
  json: (path) => `read_json_auto(${quoteLiteral(path)})`,
  jsonl: (path) => `read_json_auto(${quoteLiteral(path)}, format='newline_delimited')`,
  ndjson: (path) => `read_json_auto(${quoteLiteral(path)}, format='newline_delimited')`,
};

/** Whether @data can load a file of this name (CSV, TSV, JSON, JSON lines, XLSX). */
export function isDataFile(originalName: string): boolean {
  const extension = /\.([A-Za-z0-9]+)$/.exec(originalName)?.[1]?.toLowerCase() ?? '';
  return extension === 'xlsx' || extension in readers;
}

function jsonValue(value: DuckDBValue): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  return String(value);
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 400) ?? text;
}

/**
 * A chat's files as an in-memory DuckDB, one per question: each file a table named from its
 * upload, then locked (no file or network access, configuration locked, memory and thread limits)
 * before any SQL of the person's runs.
 *
 * @example
 * const database = await ChatDatabase.open(files);
 * const result = await database.query('SELECT region, sum(amount) FROM sales GROUP BY 1');
 * database.close();
 */
export class ChatDatabase {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly tables: TableInfo[],
    /** Files that could not be loaded, with why. */
    readonly skipped: { file: string; reason: string }[],
  ) {}

  static async open(files: readonly ChatDataFile[], options: ChatDatabaseOptions = {}): Promise<ChatDatabase> {
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: options.memoryLimit ?? '256MB',
      threads: String(options.threads ?? 2),
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      temp_directory: options.spill?.directory ?? '',
      ...(options.spill === undefined ? {} : { max_temp_directory_size: `${Math.floor(options.spill.maxBytes / 1024 / 1024)}MiB` }),
    });
    const connection = await instance.connect();
    const taken = new Set<string>();
    const loaded: { name: string; file: string }[] = [];
    const skipped: { file: string; reason: string }[] = [];
    const maxFileBytes = options.maxFileBytes ?? defaultMaxDataFileBytes;
    try {
      for (const file of files) {
        if (!isDataFile(file.originalName)) continue;
        if (file.size > maxFileBytes) {
          skipped.push({ file: file.originalName, reason: 'too large to load' });
          continue;
        }
        const name = uniqueTableName(file.originalName, taken);
        const extension = (/\.([A-Za-z0-9]+)$/.exec(file.originalName)?.[1] ?? '').toLowerCase();
        options.onLoading?.(file);
        try {
          if (extension === 'xlsx') await loadXlsx(connection, file.path, name, options.sheetLimits);
          else await connection.run(`CREATE TABLE ${quoteIdentifier(name)} AS SELECT * FROM ${readers[extension]!(file.path)}`);
          loaded.push({ name, file: file.originalName });
        } catch (error) {
          taken.delete(name);
          await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(name)}`);
          skipped.push({ file: file.originalName, reason: errorText(error) });
        }
      }
      // From here on nothing reads a file or the network, and no SQL can undo that.
      await connection.run('SET enable_external_access = false');
      await connection.run('SET lock_configuration = true');
      const tables: TableInfo[] = [];
      for (const table of loaded) {
        const described = await connection.runAndReadAll(`DESCRIBE ${quoteIdentifier(table.name)}`);
        const columns = described.getRowObjectsJS().map((row) => ({ name: String(row['column_name']), type: String(row['column_type']) }));
        const counted = await connection.runAndReadAll(`SELECT count(*) AS n FROM ${quoteIdentifier(table.name)}`);
        tables.push({ ...table, columns, rowCount: Number(counted.getRowsJS()[0]?.[0] ?? 0) });
      }
      return new ChatDatabase(instance, connection, tables, skipped);
    } catch (error) {
      connection.closeSync();
      instance.closeSync();
      throw error;
    }
  }

  /** Refuses anything but one read-only query over the chat's tables; undefined when allowed. */
  async check(sql: string): Promise<QueryFailure | undefined> {
    const byKeyword = refuseByKeyword(sql);
    if (byKeyword !== undefined) return { ok: false, kind: 'refused', message: byKeyword.reason };
    let count: number;
    try {
      count = (await this.connection.extractStatements(sql)).count;
    } catch (error) {
      return { ok: false, kind: 'error', message: errorText(error) };
    }
    const byCount = refuseStatementCount(count);
    if (byCount !== undefined) return { ok: false, kind: 'refused', message: byCount.reason };
    const serialized = await this.connection.runAndReadAll('SELECT json_serialize_sql($sql::VARCHAR) AS tree', { sql });
    const tree = JSON.parse(String(serialized.getRowsJS()[0]?.[0] ?? '{}')) as { error?: boolean; error_message?: string; statements?: unknown[] };
    if (tree.error === true || tree.statements?.length !== 1) {
      return { ok: false, kind: 'refused', message: `That statement is not allowed (${tree.error_message ?? 'not a single query'}). @data only runs one read-only query: SELECT (or WITH … SELECT), DESCRIBE or SHOW.` };
    }
    const byTree = refuseByTree(tree.statements);
    if (byTree !== undefined) return { ok: false, kind: 'refused', message: byTree.reason };
    return undefined;
  }

  /** Checks and runs one query, interrupting it after `timeoutMs`. */
  async query(sql: string, options: QueryOptions = {}): Promise<QueryResult | QueryFailure> {
    const refused = await this.check(sql);
    if (refused !== undefined) return refused;
    const timeoutMs = options.timeoutMs ?? defaultQueryTimeoutMs;
    const keepRows = options.keepRows ?? 100;
    const countRowsUpTo = options.countRowsUpTo ?? 100_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.connection.interrupt();
    }, timeoutMs);
    try {
      const result = await this.connection.stream(sql);
      const columns = result.columnNames().map((name, index) => ({ name, type: String(result.columnType(index)) }));
      const rows: QueryResult['rows'] = [];
      let rowCount = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (chunk === null || chunk.rowCount === 0) break;
        if (rows.length < keepRows) for (const row of chunk.getRows().slice(0, keepRows - rows.length)) rows.push(row.map(jsonValue));
        rowCount += chunk.rowCount;
        if (rowCount > countRowsUpTo) return { ok: true, columns, rows, rowCount: countRowsUpTo, rowCountCapped: true };
        if (timedOut) break;
      }
      if (timedOut) throw new Error('Interrupted');
      return { ok: true, columns, rows, rowCount, rowCountCapped: false };
    } catch (error) {
      if (timedOut) return { ok: false, kind: 'timeout', message: `The query ran longer than ${Math.round(timeoutMs / 100) / 10} s and was stopped; try filtering or aggregating first.` };
      return { ok: false, kind: 'error', message: errorText(error) };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
