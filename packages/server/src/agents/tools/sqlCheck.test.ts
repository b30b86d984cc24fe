import { describe, expect, it } from 'vitest';
import { leadingKeyword, refuseByKeyword, refuseByTree, refuseStatementCount } from './sqlCheck';
import { baseTableName, uniqueTableName } from './tableNames';

describe('table names', () => {
  it.each([
    ['sales.csv', 'sales'],
    ['Sales 2024 (final).xlsx', 'sales_2024_final'],
    ['monthlyRevenue.json', 'monthly_revenue'],
    ['2024-orders.csv', 't_2024_orders'],
    ['Café Prices.csv', 'cafe_prices'],
    ['数据.csv', 'file'],
    ['.csv', 'file'],
    ['a"b;drop.csv', 'a_b_drop'],
  ])('%s → %s', (file, name) => {
    expect(baseTableName(file)).toBe(name);
  });

  it('suffixes clashes _2, _3 in order', () => {
    const taken = new Set<string>();
    expect(['sales.csv', 'Sales.json', 'sales.xlsx', 'sales_2.csv'].map((file) => uniqueTableName(file, taken))).toEqual(['sales', 'sales_2', 'sales_3', 'sales_2_2']);
  });
});

describe('statement check', () => {
  it('reads the first keyword past comments and parentheses', () => {
    expect(leadingKeyword('  -- hi\n /* there */ (select 1)')).toBe('SELECT');
    expect(leadingKeyword('with t as (select 1) select * from t')).toBe('WITH');
  });

  it.each(['SELECT 1', 'with t as (select 1) select * from t', 'DESCRIBE sales', 'SHOW TABLES', 'FROM sales', '(SELECT 1)'])('allows %s', (sql) => {
    expect(refuseByKeyword(sql)).toBeUndefined();
  });

  it.each([
    ["COPY (SELECT 1) TO '/tmp/x.csv'", /COPY is not allowed: COPY writes or reads files/],
    ["ATTACH '/tmp/x.db'", /ATTACH is not allowed: ATTACH opens other databases/],
    ['INSTALL httpfs', /INSTALL downloads extensions/],
    ['LOAD httpfs', /LOAD loads extensions/],
    ['PRAGMA show_tables', /PRAGMA/],
    ["SET enable_external_access = true", /SET changes settings/],
    ['CREATE TABLE x AS SELECT 1', /CREATE changes the database/],
    ['DROP TABLE sales', /DROP changes the database/],
    ['VACUUM', /VACUUM is not allowed/],
    ['', /not a query/],
  ])('refuses %s', (sql, reason) => {
    expect(refuseByKeyword(sql)?.reason).toMatch(reason);
  });

  it('refuses more than one statement', () => {
    expect(refuseStatementCount(1)).toBeUndefined();
    expect(refuseStatementCount(2)?.reason).toMatch(/2 statements/);
  });

  const tableFunction = (name: string) => ({ node: { from_table: { type: 'TABLE_FUNCTION', function: { class: 'FUNCTION', type: 'FUNCTION', function_name: name, children: [] } } } });
  const baseTable = (catalog: string, schema: string, table: string) => ({ node: { from_table: { type: 'BASE_TABLE', catalog_name: catalog, schema_name: schema, table_name: table } } });

  it('refuses file and database readers anywhere in the tree, allows row makers', () => {
    expect(refuseByTree([tableFunction('read_csv')])?.reason).toMatch(/read_csv\(\) is not allowed/);
    expect(refuseByTree([tableFunction('glob')])?.reason).toMatch(/glob\(\) is not allowed/);
    expect(refuseByTree([tableFunction('duckdb_settings')])?.reason).toMatch(/not allowed/);
    expect(refuseByTree([tableFunction('some_new_reader')])?.reason).toMatch(/not allowed/);
    expect(refuseByTree([{ node: { select_list: [{ class: 'FUNCTION', type: 'FUNCTION', function_name: 'getenv', children: [] }] } }])?.reason).toMatch(/getenv/);
    expect(refuseByTree([tableFunction('range')])).toBeUndefined();
    expect(refuseByTree([{ node: { select_list: [{ class: 'FUNCTION', type: 'FUNCTION', function_name: 'sum', children: [] }] } }])).toBeUndefined();
  });

  it('refuses other catalogs and file-like table names', () => {
    expect(refuseByTree([baseTable('', '', 'sales')])).toBeUndefined();
    expect(refuseByTree([baseTable('', 'main', 'sales')])).toBeUndefined();
    expect(refuseByTree([baseTable('other', 'main', 't')])?.reason).toMatch(/other\.main\.t is not one of this chat's tables/);
    expect(refuseByTree([baseTable('', '', '/etc/passwd')])?.reason).toMatch(/looks like a file/);
    expect(refuseByTree([baseTable('', '', 'x.csv')])?.reason).toMatch(/looks like a file/);
  });
});
