import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { farCornerXlsx, xlsxWithSheet } from '../../../test/support/spreadsheets';
import { cellPosition, columnName, defaultSheetLimits, sheetRefusal } from './sheetSize';

describe('sheetRefusal (a spreadsheet measured before it is read)', () => {
  let folder: string;
  let count = 0;
  const file = (content: Buffer) => {
    count += 1;
    const path = join(folder, `sheet-${count}.xlsx`);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'confab-sheets-'));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads cell references both ways', () => {
    expect(cellPosition('XFD100000')).toEqual({ column: 16_384, row: 100_000 });
    expect(cellPosition('$B$7')).toEqual({ column: 2, row: 7 });
    expect(columnName(16_384)).toBe('XFD');
    expect(columnName(27)).toBe('AA');
  });

  it('lets an ordinary workbook through', async () => {
    const ordinary = await writeXlsxFile([
      [{ value: 'product' }, { value: 'price' }],
      [{ value: 'Kettle' }, { value: 25 }],
    ]).toBuffer();
    expect(await sheetRefusal(file(ordinary))).toBeUndefined();
  });

  it('refuses the A1 + XFD100000 sheet by its declared dimension, and by its cells when the dimension lies', async () => {
    expect(await sheetRefusal(file(farCornerXlsx()))).toMatch(/^its sheet declares 100,000 rows × 16,384 columns \(A1:XFD100000\); @data loads sheets of at most 100,000 rows, 1,000 columns and 2,000,000 cells/);
    expect(await sheetRefusal(file(farCornerXlsx('A1:B2')))).toMatch(/^its sheet has cells out to row 100,000 and column 16,384 \(XFD100000\)/);
  });

  it('counts cells written without references and with a namespace prefix', async () => {
    const wide = `<x:sheetData><x:row>${'<x:c><x:v>1</x:v></x:c>'.repeat(1_001)}</x:row></x:sheetData>`;
    expect(await sheetRefusal(file(xlsxWithSheet(wide)))).toMatch(/cells out to row 1 and column 1,001 \(ALM1\)/);
  });

  it('refuses more cells, or more unpacked XML, than the limits allow', async () => {
    const rows = Array.from({ length: 20 }, (_, row) => `<row r="${row + 1}">${'<c><v>1</v></c>'.repeat(5)}</row>`).join('');
    const path = file(xlsxWithSheet(`<sheetData>${rows}</sheetData>`));
    expect(await sheetRefusal(path)).toBeUndefined();
    expect(await sheetRefusal(path, { ...defaultSheetLimits, cells: 50 })).toMatch(/cells out to row 20 and column 5/);
    expect(await sheetRefusal(path, { ...defaultSheetLimits, unpackedBytes: 1_000 })).toMatch(/^it unpacks to more than 0 MB/);
  });

  it('refuses a cell tag padded to hide its reference', async () => {
    // Incompressible padding, so the tag arrives in several unzipped pieces.
    const padding = randomBytes(150 * 1024).toString('base64url');
    const padded = `<sheetData><row r="1"><c r="A1"><v>1</v></c><c r="XFD100000" pad="${padding}"><v>1</v></c></row></sheetData>`;
    expect(await sheetRefusal(file(xlsxWithSheet(padded)))).toMatch(/a cell or row tag longer than 64 KB/);
  });

  it('says a file that is not a zip is not a readable .xlsx', async () => {
    expect(await sheetRefusal(file(Buffer.from('month,amount\n2024-01,3\n')))).toMatch(/^it is not a readable \.xlsx/);
  });
});
