import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../tools/duckdb';
import { dataRequest } from './data';
import { chartFor, markdownTable, tablesText } from './dataFormat';

const result = (columns: [string, string][], rows: QueryResult['rows'], rowCount = rows.length): QueryResult => ({
  ok: true,
  columns: columns.map(([name, type]) => ({ name, type })),
  rows,
  rowCount,
  rowCountCapped: false,
});

describe('@data requests', () => {
  it.each([
    ['@data', { kind: 'help' }],
    ['@data help', { kind: 'help' }],
    ['@data tables', { kind: 'tables' }],
    ['@data SELECT 1;', { kind: 'sql', sql: 'SELECT 1' }],
    ['@data please run\n```sql\nSELECT 2\n```', { kind: 'sql', sql: 'SELECT 2' }],
    ['@data COPY t TO x', { kind: 'sql', sql: 'COPY t TO x' }],
    ['@data which region sold most?', { kind: 'question', text: 'which region sold most?' }],
  ])('%s', (content, expected) => {
    expect(dataRequest(content)).toEqual(expected);
  });
});

describe('@data answers', () => {
  it('shows 50 rows of a table, then how many more, escaping pipes', () => {
    const rows = Array.from({ length: 60 }, (_, index) => [`a|${index}`, index]);
    const table = markdownTable(result([['name', 'VARCHAR'], ['n', 'INTEGER']], rows, 75));
    expect(table.split('\n').slice(0, 3)).toEqual(['| name | n |', '| --- | ---: |', '| a\\|0 | 0 |']);
    expect(table).toContain('| a\\|49 | 49 |');
    expect(table).not.toContain('a\\|50');
    expect(table.endsWith('_25 more rows_')).toBe(true);
    expect(markdownTable(result([['n', 'INTEGER']], []))).toBe('_No rows._');
  });

  it('charts a series: dates as a line, categories as bars, several numeric columns as series', () => {
    expect(chartFor(result([['month', 'DATE'], ['total', 'DOUBLE']], [['2024-01-01', 1], ['2024-02-01', 2]]))).toEqual({
      type: 'chart',
      title: 'total by month',
      kind: 'line',
      x: { name: 'month', values: ['2024-01-01', '2024-02-01'] },
      series: [{ name: 'total', values: [1, 2] }],
    });
    const bars = chartFor(result([['region', 'VARCHAR'], ['sales', 'DECIMAL(10,2)'], ['returns', 'BIGINT']], [['north', '1.50', 2], ['south', '3.25', null]]));
    expect(bars).toMatchObject({ kind: 'bar', title: 'sales, returns by region', series: [{ name: 'sales', values: [1.5, 3.25] }, { name: 'returns', values: [2, null] }] });
  });

  it('keeps every category of a bar chart, in the order of the rows', () => {
    const regions = chartFor(result([['region', 'VARCHAR'], ['total', 'HUGEINT']], [['north', 13], ['south', 7], ['east', 4], ['west', 12]]));
    expect(regions).toMatchObject({ kind: 'bar', x: { name: 'region', values: ['north', 'south', 'east', 'west'] }, series: [{ name: 'total', values: [13, 7, 4, 12] }] });
  });

  it('counts rows in agreement: 1 row, 2 rows', () => {
    const table = (name: string, rowCount: number) => ({ name, file: `${name}.csv`, rowCount, columns: [{ name: 'n', type: 'INTEGER' }] });
    const text = tablesText([table('one', 1), table('two', 2)], []);
    expect(text).toContain('**one** (from one.csv, 1 row): n INTEGER');
    expect(text).toContain('**two** (from two.csv, 2 rows): n INTEGER');
  });

  it('charts nothing that is not a series', () => {
    expect(chartFor(result([['month', 'DATE'], ['total', 'DOUBLE']], [['2024-01-01', 1]]))).toBeUndefined();
    expect(chartFor(result([['a', 'VARCHAR'], ['b', 'VARCHAR'], ['n', 'INTEGER']], [['x', 'y', 1], ['z', 'w', 2]]))).toBeUndefined();
    expect(chartFor(result([['a', 'INTEGER'], ['n', 'INTEGER']], [[1, 1], [2, 2]]))).toBeUndefined();
    expect(chartFor(result([['region', 'VARCHAR']], [['x'], ['y']]))).toBeUndefined();
    const many = Array.from({ length: 101 }, (_, index) => [`c${index}`, index]);
    expect(chartFor(result([['c', 'VARCHAR'], ['n', 'INTEGER']], many))).toBeUndefined();
  });
});
