import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatDatabase, type ChatDataFile } from './duckdb';

describe('ChatDatabase (real DuckDB)', () => {
  let folder: string;
  let files: ChatDataFile[];
  let database: ChatDatabase;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'confab-duckdb-'));
    const csv = join(folder, 'a.csv');
    writeFileSync(csv, 'month,region,amount\n2024-01-01,north,10\n2024-02-01,north,12.5\n2024-03-01,south,7\n');
    const json = join(folder, 'b.json');
    writeFileSync(json, JSON.stringify([{ name: 'Ann', team: 'red' }, { name: 'Bo', team: 'blue' }]));
    const xlsx = join(folder, 'c.xlsx');
    await writeXlsxFile(
      [
        [{ value: 'product' }, { value: 'price' }, { value: 'launched' }],
        [{ value: 'Kettle' }, { value: 25 }, { type: Date, value: new Date(Date.UTC(2023, 4, 1)), format: 'yyyy-mm-dd' }],
        [{ value: 'Toaster' }, { value: 40.5 }, { type: Date, value: new Date(Date.UTC(2024, 0, 15)), format: 'yyyy-mm-dd' }],
      ],
    ).toFile(xlsx);
    files = [
      { originalName: 'sales.csv', path: csv, size: 100 },
      { originalName: 'Team Members.json', path: json, size: 100 },
      { originalName: 'Products.xlsx', path: xlsx, size: 100 },
      { originalName: 'sales.json', path: json, size: 100 },
      { originalName: 'notes.pdf', path: csv, size: 100 },
    ];
    database = await ChatDatabase.open(files);
  });

  afterAll(() => {
    database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('loads CSV, JSON and XLSX as tables named from the uploads, skipping other files', () => {
    expect(database.tables.map((table) => [table.name, table.file, table.rowCount])).toEqual([
      ['sales', 'sales.csv', 3],
      ['team_members', 'Team Members.json', 2],
      ['products', 'Products.xlsx', 2],
      ['sales_2', 'sales.json', 2],
    ]);
    expect(database.tables[2]?.columns).toEqual([
      { name: 'product', type: 'VARCHAR' },
      { name: 'price', type: 'DOUBLE' },
      { name: 'launched', type: 'TIMESTAMP' },
    ]);
  });

  it('runs a query with typed columns and JSON values', async () => {
    const result = await database.query('SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region');
    expect(result).toMatchObject({ ok: true, rowCount: 2, rows: [['north', 22.5], ['south', 7]] });
    const products = await database.query("SELECT product, launched::DATE AS launched FROM products WHERE price > 30");
    expect(products).toMatchObject({ ok: true, rows: [['Toaster', '2024-01-15']] });
  });

  it.each([
    ["COPY (SELECT 1) TO '/tmp/x.csv'", /COPY is not allowed/],
    ["ATTACH '/tmp/x.db'", /ATTACH is not allowed/],
    ["SELECT * FROM read_csv('/etc/passwd')", /read_csv\(\) is not allowed/],
    ["SELECT * FROM '/etc/passwd'", /looks like a file/],
    ['INSTALL httpfs', /INSTALL is not allowed/],
    ['LOAD httpfs', /LOAD is not allowed/],
    ['SELECT 1; DROP TABLE sales', /2 statements/],
    ['PRAGMA show_tables', /PRAGMA is not allowed/],
    ["SELECT current_setting('enable_external_access')", /current_setting\(\) is not allowed/],
  ])('refuses %s', async (sql, reason) => {
    const result = await database.query(sql);
    expect(result).toMatchObject({ ok: false, kind: 'refused' });
    expect(result.ok ? '' : result.message).toMatch(reason);
  });

  it('keeps external access off even for SQL the check would let through', async () => {
    // The second lock: the configuration itself, which no SQL may change any more.
    const settings = await database.query("SELECT value FROM duckdb_settings() WHERE name = 'enable_external_access'");
    expect(settings.ok).toBe(false);
    const unknownTable = await database.query('SELECT * FROM other_chat_sales');
    expect(unknownTable).toMatchObject({ ok: false, kind: 'error' });
    expect(unknownTable.ok ? '' : unknownTable.message).toMatch(/other_chat_sales/);
  });

  it('interrupts a query past its time limit and keeps working', async () => {
    const started = Date.now();
    const result = await database.query('SELECT count(*) FROM range(1000000000000)', { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, kind: 'timeout' });
    expect(result.ok ? '' : result.message).toMatch(/longer than 0\.3 s and was stopped/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await database.query('SELECT 1 AS one')).toMatchObject({ ok: true, rows: [[1]] });
  });

  it('spills nothing without a spill folder: a query past its memory fails, and no temporary file is written', async () => {
    const before = readdirSync(process.cwd());
    const result = await database.query('SELECT count(*) FROM range(100000000) a, range(100000000) b', { timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, kind: 'error', message: expect.stringMatching(/^Out of Memory Error/) });
    expect(readdirSync(process.cwd()).filter((name) => !before.includes(name))).toEqual([]);
    expect(await database.query('SELECT 1 AS one')).toMatchObject({ ok: true, rows: [[1]] });
  });

  it('keeps the first rows and counts the rest', async () => {
    const result = await database.query('SELECT * FROM range(250)', { keepRows: 50 });
    expect(result).toMatchObject({ ok: true, rowCount: 250, rowCountCapped: false });
    expect(result.ok && result.rows.length).toBe(50);
  });
});
