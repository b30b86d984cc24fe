import type { DuckDBConnection } from '@duckdb/node-api';
import { readSheet } from 'read-excel-file/node';
import { defaultSheetLimits, sheetRefusal, type SheetLimits } from './sheetSize';
import { quoteIdentifier } from './tableNames';

type Cell = string | number | boolean | Date | null;
type ColumnType = 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'VARCHAR';

function columnTypeOf(cells: Cell[]): ColumnType {
  const present = cells.filter((cell) => cell !== null && cell !== '');
  if (present.length === 0) return 'VARCHAR';
  if (present.every((cell) => typeof cell === 'number')) return 'DOUBLE';
  if (present.every((cell) => typeof cell === 'boolean')) return 'BOOLEAN';
  if (present.every((cell) => cell instanceof Date)) return 'TIMESTAMP';
  return 'VARCHAR';
}

function headerNames(header: Cell[], width: number): string[] {
  const seen = new Set<string>();
  return Array.from({ length: width }, (_, index) => {
    const raw = header[index];
    const base = raw === null || raw === undefined || String(raw).trim() === '' ? `column_${index + 1}` : String(raw).trim();
    let name = base;
    for (let suffix = 2; seen.has(name.toLowerCase()); suffix += 1) name = `${base}_${suffix}`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/**
 * Loads the first sheet of an XLSX file into a new table: the first row names the columns, each
 * column gets DOUBLE, BOOLEAN, TIMESTAMP or VARCHAR from its cells. (DuckDB's excel extension is
 * not available offline.) The reader fills every empty cell of the sheet's area, so the sheet's
 * size is measured first and a sheet beyond `limits` is refused with the reason.
 */
export async function loadXlsx(connection: DuckDBConnection, path: string, table: string, limits: SheetLimits = defaultSheetLimits): Promise<void> {
  const refusal = await sheetRefusal(path, limits);
  if (refusal !== undefined) throw new Error(refusal);
  const rows = (await readSheet(path)) as unknown as Cell[][];
  const [header = [], ...data] = rows;
  const width = Math.max(header.length, ...data.map((row) => row.length), 1);
  const names = headerNames(header, width);
  const types = names.map((_, index) => columnTypeOf(data.map((row) => row[index] ?? null)));
  await connection.run(`CREATE TABLE ${quoteIdentifier(table)} (${names.map((name, index) => `${quoteIdentifier(name)} ${types[index]}`).join(', ')})`);
  if (data.length === 0) return;
  const appender = await connection.createAppender(table);
  for (const row of data) {
    types.forEach((type, index) => {
      const cell = row[index] ?? null;
      if (cell === null || cell === '') appender.appendNull();
      else if (type === 'DOUBLE') appender.appendDouble(cell as number);
      else if (type === 'BOOLEAN') appender.appendBoolean(cell as boolean);
      else if (type === 'TIMESTAMP') appender.appendVarchar((cell as Date).toISOString().replace('T', ' ').replace('Z', ''));
      else appender.appendVarchar(cell instanceof Date ? cell.toISOString() : String(cell));
    });
    appender.endRow();
  }
  appender.closeSync();
}
