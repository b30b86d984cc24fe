/**
 * Hand-made .xlsx files for @data's tests: the smallest workbook that spreadsheet readers accept
 * (content types, the workbook, its relationships and one sheet), zipped with fflate, so a test can
 * write any sheet XML, hostile ones included.
 */
import { strToU8, zipSync } from 'fflate';

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** An .xlsx whose first (only) sheet holds `sheetBody` (`<dimension>`, `<sheetData>`…); `level` 1 zips big sheets fast. */
export function xlsxWithSheet(sheetBody: string, level: 1 | 9 = 9): Buffer {
  const files = {
    '[Content_Types].xml': strToU8(
      `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `${xmlHead}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${xmlHead}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(`${xmlHead}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${sheetBody}</worksheet>`),
  };
  return Buffer.from(zipSync(files, { level }));
}

/**
 * The spreadsheet of the security finding: cells A1 and XFD100000 only (1.5 KB), which a reader
 * that fills every empty cell turns into 1.6 billion of them.
 */
export function farCornerXlsx(dimension = 'A1:XFD100000'): Buffer {
  return xlsxWithSheet(
    `<dimension ref="${dimension}"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row><row r="100000"><c r="XFD100000"><v>1</v></c></row></sheetData>`,
  );
}

function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/**
 * A sheet of `rows` × `columns` cells of `length` characters each (a header row of names first):
 * within every size cap, and compressed to little, but heavy for whoever reads it into memory.
 */
export function heavyTextXlsx(rows: number, columns: number, length: number): Buffer {
  const filler = 'x'.repeat(Math.max(0, length - 12));
  const cell = (reference: string, text: string) => `<c r="${reference}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const body: string[] = [`<row r="1">${Array.from({ length: columns }, (_, column) => cell(`${columnLetters(column)}1`, `c${column}`)).join('')}</row>`];
  for (let row = 2; row <= rows + 1; row += 1) {
    body.push(`<row r="${row}">${Array.from({ length: columns }, (_, column) => cell(`${columnLetters(column)}${row}`, `${filler}${row}-${column}`)).join('')}</row>`);
  }
  return xlsxWithSheet(`<dimension ref="A1:${columnLetters(columns - 1)}${rows + 1}"/><sheetData>${body.join('')}</sheetData>`, 1);
}
