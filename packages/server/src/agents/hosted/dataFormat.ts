import type { ChartMessage } from '@confab/client/protocol';
import { chartLimits } from '@confab/client/protocol';
import type { QueryResult, TableInfo } from '../tools/duckdb';

/** Rows shown in a reply's table; the rest are counted. */
export const shownRows = 50;

const numericType = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL|REAL)/;
const dateType = /^(DATE|TIMESTAMP|TIME)/;

function cellText(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 6, useGrouping: false }) : String(value);
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, 200);
}

/** A markdown table of the first 50 rows, then 'N more rows'. */
export function markdownTable(result: QueryResult): string {
  if (result.columns.length === 0) return '_No columns._';
  if (result.rowCount === 0) return '_No rows._';
  const header = `| ${result.columns.map((column) => cellText(column.name)).join(' | ')} |`;
  const rule = `| ${result.columns.map((column) => (numericType.test(column.type) ? '---:' : '---')).join(' | ')} |`;
  const rows = result.rows.slice(0, shownRows).map((row) => `| ${row.map(cellText).join(' | ')} |`);
  const more = result.rowCount - Math.min(result.rows.length, shownRows);
  const tail = more > 0 ? `\n\n_${result.rowCountCapped ? 'more than ' : ''}${more.toLocaleString('en-US')} more row${more === 1 ? '' : 's'}_` : '';
  return [header, rule, ...rows].join('\n') + tail;
}

/** The SQL as a fenced block (fences inside it cannot close it early). */
export function sqlBlock(sql: string): string {
  return `\`\`\`sql\n${sql.trim().replace(/```/g, '` ` `')}\n\`\`\``;
}

/** `@data tables`: every table with its columns and row count. */
export function tablesText(tables: readonly TableInfo[], skipped: readonly { file: string; reason: string }[]): string {
  const lines = tables.map((table) => `- **${table.name}** (from ${table.file}, ${table.rowCount.toLocaleString('en-US')} ${table.rowCount === 1 ? 'row' : 'rows'}): ${table.columns.map((column) => `${column.name} ${column.type}`).join(', ')}`);
  const skippedLines = skipped.map((entry) => `- ${entry.file} could not be loaded: ${entry.reason}`);
  if (lines.length === 0) return ['This chat has no CSV, JSON or XLSX files yet. Upload one and ask again.', ...skippedLines].join('\n');
  return [`Tables in this chat:`, ...lines, ...skippedLines].join('\n');
}

/**
 * A chart for a result that is a series: one date or category column and one or more numeric
 * columns, 2–100 rows (all of them kept). Dates give a line, categories bars.
 */
export function chartFor(result: QueryResult): ChartMessage | undefined {
  if (result.rowCountCapped || result.rowCount < chartLimits.minPoints || result.rowCount > chartLimits.maxPoints || result.rows.length !== result.rowCount) return undefined;
  const xIndexes = result.columns.flatMap((column, index) => (numericType.test(column.type) ? [] : [index]));
  if (xIndexes.length !== 1) return undefined;
  const xIndex = xIndexes[0]!;
  const xColumn = result.columns[xIndex]!;
  if (!dateType.test(xColumn.type) && !/^VARCHAR/.test(xColumn.type)) return undefined;
  const seriesIndexes = result.columns.flatMap((_, index) => (index === xIndex ? [] : [index])).slice(0, chartLimits.maxSeries);
  if (seriesIndexes.length === 0) return undefined;
  const series = seriesIndexes.map((index) => ({
    name: result.columns[index]!.name.slice(0, chartLimits.maxTitleLength) || `column ${index + 1}`,
    values: result.rows.map((row) => {
      const value = row[index];
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
      return Number.isFinite(number) ? number : null;
    }),
  }));
  if (series.some((entry) => entry.values.every((value) => value === null))) return undefined;
  const xName = xColumn.name.slice(0, chartLimits.maxTitleLength) || 'x';
  const title = `${series.map((entry) => entry.name).join(', ')} by ${xName}`.slice(0, chartLimits.maxTitleLength);
  return {
    type: 'chart',
    title,
    kind: dateType.test(xColumn.type) ? 'line' : 'bar',
    x: { name: xName, values: result.rows.map((row) => String(row[xIndex] ?? '').slice(0, chartLimits.maxTitleLength)) },
    series,
  };
}
